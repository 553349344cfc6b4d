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
    /// while `workers` threads decompress and parse the blocks ahead of it.
    ///
    /// ```swift
    /// var state = NavigationState(session: reader.session ?? "")
    /// try reader.scan { state.apply($0) }
    /// ```
    ///
    /// It hands out exactly what ``cursor(fromSeq:toSeq:)`` does and fails
    /// where a cursor fails, with the same ``LogError`` after the same
    /// events; a full read + fold on two cores takes about half a cursor's
    /// time. `body` runs on the calling thread, one event at a time. At most
    /// four parsed blocks per worker wait in memory. When `body` throws, the
    /// workers stop and its error is rethrown. With one worker, or a range
    /// within one block, no thread is started.
    public func scan(
        fromSeq: Int = 1, toSeq: Int = Int.max, workers: Int = LogReader.scanWorkers, _ body: (Event) throws -> Void
    ) throws {
        let from = max(fromSeq, 1)
        let first = blockIndex(containingSeq: from)
        let end = toSeq == Int.max ? blocks.count : min(blocks.count, blockIndex(containingSeq: toSeq) + 1)
        guard workers > 1, end - first > 1 else {
            try cursor(fromSeq: fromSeq, toSeq: toSeq).forEach(body)
            return
        }
        let entries = Array(blocks[first..<end])
        let scan = try ParallelBlockScan(file: file, entries: entries, workers: workers)
        defer { file.blocksDecompressed += scan.stop() }
        var lastSeq = from - 1
        for i in entries.indices {
            var batch = scan.batch(i, entries[i], path: path)
            let reachedEnd = try batch.events.withUnsafeBufferPointer { events in
                for j in events.indices where events[j].seq > lastSeq {
                    if events[j].seq > toSeq { return true }
                    lastSeq = events[j].seq
                    try body(events[j])
                }
                return false
            }
            if reachedEnd { return }
            if let error = batch.error { throw error }
            scan.recycle(i, &batch.events)
        }
        // The tail: events of a growing file after its last sealed block.
        for event in tailEvents where event.seq > lastSeq {
            if event.seq > toSeq { return }
            lastSeq = event.seq
            try body(event)
        }
    }

    /// Threads a ``scan(fromSeq:toSeq:workers:_:)`` uses by default: two on a
    /// machine with two or more cores, else none.
    public static var scanWorkers: Int { min(2, max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
}

/// Worker threads that decompress and parse blocks for a scan: block `i`
/// goes to worker `i % workers`, whose queue hands its blocks out in order.
private final class ParallelBlockScan: @unchecked Sendable {
    /// One block's events, and the error that ended the block early.
    struct Batch: Sendable {
        var events: [Event]
        var error: LogError?
    }

    private let queues: [BoundedQueue<Batch>]
    /// Arrays the caller is done with, going back to their worker to be
    /// emptied and filled again (their events are released there, and no
    /// block's array is allocated anew).
    private let returns: [BoundedQueue<[Event]>]
    private var threads: [WorkerThread] = []
    private let readers: [BlockReader]

    init(file: LogFile, entries: [BlockEntry], workers: Int) throws(LogError) {
        queues = (0..<workers).map { _ in BoundedQueue<Batch>(capacity: Self.ahead) }
        returns = (0..<workers).map { _ in BoundedQueue<[Event]>(capacity: Self.ahead + 2) }
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
        for i in stride(from: w, to: entries.count, by: queues.count) {
            let entry = entries[i]
            var batch = Batch(events: returns[w].tryPop() ?? [], error: nil)
            batch.events.removeAll(keepingCapacity: true)
            do {
                try reader.read(entry)
                batch.events.reserveCapacity(entry.eventCount)
                try forEachLine(in: reader.content.bytes) { line, _ throws(LogError) in
                    batch.events.append(try reader.parse(line, of: entry))
                    return true
                }
            } catch {
                batch.error = error
            }
            guard queue.push(batch), batch.error == nil else { return }
        }
    }

    /// Parsed blocks each worker may have waiting.
    static let ahead = 4

    /// Hands block `i`'s array back to its worker (dropped when it has enough).
    func recycle(_ i: Int, _ events: inout [Event]) {
        let moved = events
        events = []
        _ = returns[i % returns.count].tryPush(moved)
    }

    /// Block `i`'s batch, waiting for it. (A worker ends early only after
    /// handing out a failed block, which ends the scan before this one.)
    func batch(_ i: Int, _ entry: BlockEntry, path: String) -> Batch {
        queues[i % queues.count].pop()
            ?? Batch(events: [], error: .corrupt(path, "block was not read", offset: entry.dataOffset,
                                                 frame: entry.dataFrameIndex, seq: entry.firstSeq))
    }

    /// Stops the workers and waits for them; returns the blocks they decompressed.
    func stop() -> Int {
        for queue in queues { queue.fail() }
        for thread in threads { thread.join() }
        return readers.reduce(0) { $0 + $1.decompressed }
    }
}
