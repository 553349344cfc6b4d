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
    /// where a cursor fails, with the same ``FileError`` after the same
    /// events. Blocks are taken in order by whichever thread is free: the
    /// workers parse ahead (at most four blocks each), and the calling
    /// thread, which runs `body` one event at a time, parses the next block
    /// itself when no worker has taken it yet — so neither side waits for
    /// long. On two cores (one worker) a full read + fold takes about half a
    /// cursor's time. When `body` throws, the workers stop and its error is
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
            guard let batch = scan.take(i, parsingWhileWaitingWith: own) else {
                // No worker took this block: parsed here and handed straight to `body`.
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
            scan.recycle(events)
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

/// Worker threads that decompress and parse blocks for a scan. Blocks are
/// claimed in order, by a worker or by the caller (``take(_:_:path:)``), so
/// whichever side is free does the next one; a worker claims at most
/// ``ahead`` blocks beyond the one the caller is at. One lock guards it all.
private final class ParallelBlockScan: @unchecked Sendable {
    /// One block's events, and the error that ended the block early.
    struct Batch {
        var events: EventBuffer
        var error: FileError?
    }

    /// How far beyond the caller the workers may claim blocks.
    static let ahead = 4

    private let entries: [BlockEntry]
    private var threads: [WorkerThread] = []
    private let readers: [BlockReader]
    private let lock = Locked(())
    // Guarded by `lock`:
    private var nextUnclaimed = 0
    private var callerAt = 0
    private var stopped = false
    /// Parsed blocks not yet taken, by block index modulo `slots.count`.
    private var slots: [Batch?]
    /// Buffers the caller is done with (emptied), for the workers' next blocks.
    private var spares: [EventBuffer] = []

    init(file: OpenFile, entries: [BlockEntry], workers: Int) throws(FileError) {
        self.entries = entries
        slots = Array(repeating: nil, count: Self.ahead + 1)
        var readers: [BlockReader] = []
        for _ in 0..<workers {
            let reader = try BlockReader(file: file)
            reader.countsOnFile = false
            readers.append(reader)
        }
        self.readers = readers
        for w in 0..<workers {
            threads.append(WorkerThread { [self] in self.work(self.readers[w]) })
        }
    }

    /// A worker: claims the next block while it may, parses it, leaves it
    /// in its slot; ends at the last block, on a failed block, or when stopped.
    private func work(_ reader: BlockReader) {
        while true {
            let claimed = lock.withLock(when: { _ in
                stopped || nextUnclaimed >= entries.count || nextUnclaimed - callerAt < Self.ahead
            }) { _ -> (Int, EventBuffer)? in
                if stopped || nextUnclaimed >= entries.count { return nil }
                return claimNextUnclaimed()
            }
            guard let (i, events) = claimed, parse(i, into: events, with: reader) else { break }
        }
    }

    /// Claims the next block and a buffer for its events (under the lock).
    private func claimNextUnclaimed() -> (Int, EventBuffer) {
        nextUnclaimed += 1
        return (nextUnclaimed - 1, spares.popLast() ?? EventBuffer())
    }

    /// Parses claimed block `i` into its slot (without the lock while it
    /// parses). `false` when the block failed.
    private func parse(_ i: Int, into events: EventBuffer, with reader: BlockReader) -> Bool {
        let entry = entries[i]
        var batch = Batch(events: events, error: nil)
        do {
            try reader.read(entry)
            events.reserve(entry.eventCount)
            try forEachLine(in: reader.content.bytes) { line, _ throws(FileError) in
                events.append(try reader.parse(line, of: entry))
                return true
            }
        } catch {
            batch.error = error
        }
        lock.withLock { _ in slots[i % slots.count] = batch }
        lock.broadcast()
        return batch.error == nil
    }

    /// Block `i` parsed into its slot, or `nil` when nobody had claimed it:
    /// the caller has now, and parses it itself, straight into `body`. While
    /// a worker is still on block `i`, the caller parses a later unclaimed
    /// block (within the window) with `reader` instead of waiting idle.
    func take(_ i: Int, parsingWhileWaitingWith reader: BlockReader) -> Batch? {
        let unclaimed = lock.withLock { _ -> Bool in
            callerAt = i
            guard nextUnclaimed <= i else { return false }
            nextUnclaimed = i + 1
            return true
        }
        lock.broadcast()
        if unclaimed { return nil }
        // Claimed already. (A worker stops only after leaving a failed
        // block, which ends the scan before any later block is asked for.)
        while true {
            let step = lock.withLock(when: { _ in
                slots[i % slots.count] != nil || (nextUnclaimed < entries.count && nextUnclaimed - i < Self.ahead)
            }) { _ -> (batch: Batch?, claim: (Int, EventBuffer)?) in
                if let batch = slots[i % slots.count] {
                    slots[i % slots.count] = nil
                    return (batch, nil)
                }
                return (nil, claimNextUnclaimed())
            }
            if let batch = step.batch { return batch }
            if let (j, events) = step.claim { _ = parse(j, into: events, with: reader) }
        }
    }

    /// Hands an emptied buffer back for the workers' next blocks.
    func recycle(_ events: EventBuffer) {
        lock.withLock { _ in
            if spares.count < Self.ahead + 1 { spares.append(events) }
        }
    }

    /// Stops the workers and waits for them; returns the blocks they decompressed.
    func stop() -> Int {
        lock.withLock { _ in stopped = true }
        lock.broadcast()
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
