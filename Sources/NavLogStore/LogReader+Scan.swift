import NavLogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LogReader {
    /// Calls `body` with every event with `fromSeq ≤ seq ≤ toSeq`, in order,
    /// while `workers` threads decompress and parse blocks ahead of it.
    ///
    /// ```swift
    /// var state = NavigationState(session: reader.session ?? "")
    /// try reader.scan { state.apply($0) }
    /// ```
    ///
    /// It hands out exactly what ``cursor(fromSeq:toSeq:)`` does and fails
    /// where a cursor fails, with the same ``LogError`` after the same
    /// events. The calling thread parses one block in `2 × workers + 1`
    /// itself and runs `body`, one event at a time; the workers parse the
    /// rest. On two cores (one worker) a full read + fold takes a little over
    /// half a cursor's time. At most four parsed blocks per worker wait in
    /// memory. When `body` throws, the workers stop and its error is
    /// rethrown. With no worker, or a range within one block, no thread is
    /// started.
    public func scan(
        fromSeq: Int = 1, toSeq: Int = Int.max, workers: Int = LogReader.scanWorkers, _ body: (Event) throws -> Void
    ) throws {
        let from = max(fromSeq, 1)
        let first = blockIndex(containingSeq: from)
        let end = toSeq == Int.max ? blocks.count : min(blocks.count, blockIndex(containingSeq: toSeq) + 1)
        guard workers > 0, end - first > 1 else {
            try cursor(fromSeq: fromSeq, toSeq: toSeq).forEach(body)
            return
        }
        let entries = Array(blocks[first..<end])
        let scan = try ParallelBlockScan(file: file, entries: entries, workers: workers)
        defer { file.blocksDecompressed += scan.stop() }
        let own = try BlockReader(file: file)
        var lastSeq = from - 1
        for i in entries.indices {
            guard ParallelBlockScan.worker(of: i, workers: workers) != nil else {
                // One of the caller's own blocks: parsed here and handed straight to `body`.
                let entry = entries[i]
                try own.read(entry)
                var line = 0
                while line < own.content.count {
                    let content = own.content.bytes
                    let lineEnd = lineEnd(in: content, from: line)
                    let event = try own.parse(UnsafeRawBufferPointer(rebasing: content[line..<lineEnd]), of: entry)
                    line = lineEnd + 1
                    guard event.seq > lastSeq else { continue }
                    if event.seq > toSeq { return }
                    lastSeq = event.seq
                    try body(event)
                }
                continue
            }
            let batch = scan.batch(i, entries[i], path: path)
            // Events are moved out one by one (no copy, no retain); the
            // rest are released when the scan ends early.
            let events = batch.events
            var reachedEnd = false
            while let event = events.takeNext() {
                guard event.seq > lastSeq else { continue }
                if event.seq > toSeq {
                    reachedEnd = true
                    break
                }
                lastSeq = event.seq
                do { try body(event) } catch {
                    events.removeAll()
                    throw error
                }
            }
            events.removeAll()
            if reachedEnd { return }
            if let error = batch.error { throw error }
            scan.recycle(i, events)
        }
        // The tail: events of a growing file after its last sealed block.
        for event in tailEvents where event.seq > lastSeq {
            if event.seq > toSeq { return }
            lastSeq = event.seq
            try body(event)
        }
    }

    /// Threads a ``scan(fromSeq:toSeq:workers:_:)`` starts by default: one
    /// fewer than the cores, at most three.
    public static var scanWorkers: Int { min(3, max(0, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) - 1)) }
}

/// Worker threads that decompress and parse blocks for a scan, in rounds of
/// `2 × workers + 1` blocks: the first of a round is the caller's, which
/// also folds; the others go to the workers in turn. Each worker's queue
/// hands its blocks out in order.
private final class ParallelBlockScan: @unchecked Sendable {
    /// One block's events, and the error that ended the block early.
    struct Batch: @unchecked Sendable {
        var events: EventBuffer
        var error: LogError?
    }

    private let queues: [BoundedQueue<Batch>]
    /// Arrays the caller is done with, going back to their worker to be
    /// emptied and filled again (their events are released there, and no
    /// block's array is allocated anew).
    private let returns: [BoundedQueue<EventBuffer>]
    private var threads: [WorkerThread] = []
    private let readers: [BlockReader]

    init(file: LogFile, entries: [BlockEntry], workers: Int) throws(LogError) {
        queues = (0..<workers).map { _ in BoundedQueue<Batch>(capacity: Self.ahead) }
        returns = (0..<workers).map { _ in BoundedQueue<EventBuffer>(capacity: Self.ahead + 2) }
        var readers: [BlockReader] = []
        for _ in 0..<workers {
            let reader = try BlockReader(file: file)
            reader.countsOnFile = false
            readers.append(reader)
        }
        self.readers = readers
        for w in 0..<workers {
            threads.append(WorkerThread { [self] in self.work(w, entries: entries) })
        }
    }

    /// Worker `w`: its blocks in order, until one fails or the scan stops.
    private func work(_ w: Int, entries: [BlockEntry]) {
        let reader = readers[w]
        let queue = queues[w]
        defer { queue.close() }
        for i in entries.indices where Self.worker(of: i, workers: queues.count) == w {
            let entry = entries[i]
            var batch = Batch(events: returns[w].tryPop() ?? EventBuffer(), error: nil)
            do {
                try reader.read(entry)
                let events = batch.events
                events.reserve(entry.eventCount)
                try forEachLine(in: reader.content.bytes) { line, _ throws(LogError) in
                    events.append(try reader.parse(line, of: entry))
                    return true
                }
            } catch {
                batch.error = error
            }
            guard queue.push(batch), batch.error == nil else { return }
        }
    }

    /// The worker that parses block `i`; `nil` for the caller's blocks.
    @inline(__always)
    static func worker(of i: Int, workers: Int) -> Int? {
        let place = i % (2 * workers + 1)
        return place == 0 ? nil : (place - 1) % workers
    }

    /// Parsed blocks each worker may have waiting.
    static let ahead = 4

    /// Hands block `i`'s emptied buffer back to its worker (dropped when it has enough).
    func recycle(_ i: Int, _ events: EventBuffer) {
        _ = returns[Self.worker(of: i, workers: returns.count)!].tryPush(events)
    }

    /// Block `i`'s batch, waiting for it. (A worker ends early only after
    /// handing out a failed block, which ends the scan before this one.)
    func batch(_ i: Int, _ entry: BlockEntry, path: String) -> Batch {
        queues[Self.worker(of: i, workers: queues.count)!].pop()
            ?? Batch(events: EventBuffer(), error: .corrupt(path, "block was not read", offset: entry.dataOffset,
                                                 frame: entry.dataFrameIndex, seq: entry.firstSeq))
    }

    /// Stops the workers and waits for them; returns the blocks they decompressed.
    func stop() -> Int {
        for queue in queues { queue.fail() }
        for thread in threads { thread.join() }
        return readers.reduce(0) { $0 + $1.decompressed }
    }
}

/// A block's parsed events on their way from a worker to the caller: the
/// worker appends them, the caller moves them out one at a time, so an
/// event is neither copied nor retained on the way. Used by one thread at a
/// time (handed over through a queue); reused for block after block.
private final class EventBuffer: @unchecked Sendable {
    private var base: UnsafeMutablePointer<Event>
    private var capacity: Int
    /// Events `next..<count` are initialized.
    private var next = 0
    private var count = 0

    init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = UnsafeMutablePointer<Event>.allocate(capacity: self.capacity)
    }

    deinit {
        removeAll()
        base.deallocate()
    }

    /// Makes room for `n` events in all.
    func reserve(_ n: Int) {
        guard n > capacity else { return }
        let grown = UnsafeMutablePointer<Event>.allocate(capacity: n)
        grown.moveInitialize(from: base + next, count: count - next)
        base.deallocate()
        base = grown
        capacity = n
        count -= next
        next = 0
    }

    func append(_ event: Event) {
        if count == capacity { reserve(capacity * 2) }
        (base + count).initialize(to: event)
        count += 1
    }

    /// The next event, moved out; `nil` when none is left.
    func takeNext() -> Event? {
        guard next < count else { return nil }
        next += 1
        return (base + next - 1).move()
    }

    /// Releases the events not taken; the buffer is empty again.
    func removeAll() {
        (base + next).deinitialize(count: count - next)
        next = 0
        count = 0
    }
}
