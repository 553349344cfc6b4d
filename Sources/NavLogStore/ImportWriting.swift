import NavLogCore

/// The writing side of an import, shared with `navlog ingest`: each
/// session's events routed to its log in the store (found or created as
/// ingest does, its seq continued), numbered, and written in batches by
/// ``StoreIngester``'s writer threads (``WriterSink``, a session always on
/// the same thread, at most `maxOpenWriters` logs open).
///
/// The events of one record are numbered and queued together, after their
/// canonical size is checked, so the writer stores all of them.
final class ImportWriting {
    private let store: Store
    private let queues: [BoundedQueue<[StoreIngester.Item]>]
    private let sinks: [WriterSink]
    private let workers: [WorkerThread]
    private let batchEvents: Int
    /// Session (exact bytes) → its log, last seq, writer thread.
    private var routes: [SessionKey: (path: String, lastSeq: Int, sink: Int)] = [:]
    private var claimed: Set<String> = []
    private var batches: [[StoreIngester.Item]]
    private var nextSink = 0
    private var canonical = CanonicalWriter(capacity: 1024)
    private var finished = false
    /// Sessions that got events, and of those, logs that did not exist.
    private(set) var sessions = 0
    private(set) var newLogs = 0

    init(store: Store, options: StoreIngester.Options, files: [String]) {
        self.store = store
        let n = max(options.writerThreads, 1)
        queues = (0..<n).map { _ in BoundedQueue<[StoreIngester.Item]>(capacity: max(options.queuedBatches / n, 1)) }
        let perSink = max(options.maxOpenWriters / n, 1)
        sinks = (0..<n).map { _ in WriterSink(maxOpenWriters: perSink, writerOptions: options.writerOptions, files: files) }
        workers = (0..<n).map { [sinks, queues] i in WorkerThread { sinks[i].run(queues[i]) } }
        batchEvents = options.batchEvents
        batches = Array(repeating: [], count: n)
    }

    deinit { _ = finish() }

    /// Numbers and queues one record's events (all of one session). Returns
    /// why they were refused (nothing queued), or `nil`.
    ///
    /// - Throws: ``LogError`` when the session's log cannot be looked up or
    ///   opened for reading, or a writer thread has stopped.
    func add(_ events: [Event], file: Int, line: Int, recordBytes: Int) throws(LogError) -> EventParseError? {
        guard let first = events.first else { return nil }
        let key = SessionKey(first.session)
        var route: (path: String, lastSeq: Int, sink: Int)
        if let known = routes[key] {
            route = known
        } else {
            let (existing, free) = try store.locate(first.session, claimed: claimed)
            route = (existing ?? free, 0, nextSink)
            nextSink = (nextSink + 1) % queues.count
            if let existing { route.lastSeq = try LogReader(path: existing).lastSeq ?? 0 } else { newLogs += 1 }
            routes[key] = route
            claimed.insert(route.path)
            sessions += 1
        }
        var numbered = events
        var seq = route.lastSeq
        for i in numbered.indices {
            guard seq < Int.max else { return .invalidValue(field: "seq", reason: "session has reached the largest seq") }
            seq += 1
            numbered[i].seq = seq
            // Only a long record can make a canonical line over the limit.
            if recordBytes > EventParser.maxLineBytes / 4 {
                canonical.reset()
                canonical.write(numbered[i])
                if canonical.bytes.count > EventParser.maxLineBytes {
                    return .invalidValue(field: "(event)", reason: "canonical line is \(canonical.bytes.count) bytes, over the limit of \(EventParser.maxLineBytes)")
                }
            }
        }
        routes[key]!.lastSeq = seq
        for event in numbered {
            batches[route.sink].append(StoreIngester.Item(event: event, path: route.path, file: file, line: line))
        }
        if batches[route.sink].count >= batchEvents {
            guard queues[route.sink].push(batches[route.sink]) else { throw LogError(path: route.path, kind: .closed) }
            batches[route.sink].removeAll(keepingCapacity: true)
        }
        return nil
    }

    /// Flushes the batches, waits for the writer threads (every log closed)
    /// and gives what they stored, refused and failed with.
    func finish() -> (stored: Int, rejections: [StoreIngester.Rejection], failure: LogError?) {
        if !finished {
            finished = true
            for (i, batch) in batches.enumerated() where !batch.isEmpty { _ = queues[i].push(batch) }
            batches = batches.map { _ in [] }
            for queue in queues { queue.close() }
            for worker in workers { worker.join() }
        }
        return (sinks.reduce(0) { $0 + $1.stored }, sinks.flatMap(\.rejections), sinks.lazy.compactMap(\.failure).first)
    }
}
