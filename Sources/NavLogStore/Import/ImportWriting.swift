import NavLogCore

/// The writing side of an import: each session's events routed to its log
/// in the store (found or created as ingest does, its seq continued),
/// numbered, and written in batches by writer threads (``WriterSink``, a
/// session always on the same thread, at most `maxOpenWriters` logs open).
/// The logs, and new logs' names, are made durable together at the end.
///
/// The events of one record are numbered and queued together, after their
/// canonical size is checked, so the writer stores all of them.
final class ImportWriting {
    private let store: Store
    private let queues: [BoundedQueue<WriterSink.Batch>]
    private let sinks: [WriterSink]
    private let workers: [WorkerThread]
    private let preambles: PreambleSyncer
    private let batchEvents: Int
    private var router: SessionRouter
    private var batches: [WriterSink.Batch]
    private var canonical = CanonicalWriter(capacity: 1024)
    private var finished = false
    private var syncFailure: LogError?
    /// Sessions that got events, and of those, logs that did not exist.
    var sessions: Int { router.routes.count }
    var newLogs: Int { router.newLogs }

    init(store: Store, options: StoreIngester.Options, files: [String]) {
        self.store = store
        let n = max(options.writerThreads, 1)
        // Logs, and new logs' names, are made durable together in finish();
        // new logs' preambles on a thread of their own.
        var writerOptions = options.writerOptions
        writerOptions.syncsDirectoryOnCreate = false
        writerOptions.syncsOnClose = false
        let preambles = PreambleSyncer(directory: store.directory)
        self.preambles = preambles
        router = SessionRouter(store: store, sinks: n)
        queues = (0..<n).map { _ in BoundedQueue<WriterSink.Batch>(capacity: max(options.queuedBatches / n, 1)) }
        let perSink = max(options.maxOpenWriters / n, 1)
        sinks = (0..<n).map { [writerOptions] _ in
            WriterSink(maxOpenWriters: perSink, writerOptions: writerOptions, preambleSyncer: preambles, files: files)
        }
        workers = (0..<n).map { [sinks, queues] i in WorkerThread { sinks[i].run(queues[i]) } }
        batchEvents = options.batchEvents
        batches = Array(repeating: WriterSink.Batch(), count: n)
    }

    deinit { _ = finish() }

    /// Numbers and queues one record's events (all of one session). Returns
    /// why they were refused (nothing queued), or `nil`.
    ///
    /// - Throws: ``LogError`` when the session's log cannot be looked up or
    ///   opened for reading, or a writer thread has stopped.
    func add(_ events: [Event], file: Int, line: Int, recordBytes: Int) throws(LogError) -> EventParseError? {
        guard let first = events.first else { return nil }
        let number = try router.number(of: first.session)
        let route = router.routes[number]
        var numbered = events
        var seq = route.lastSeq
        for i in numbered.indices {
            do throws(SeqRefusal) { seq = try Sequencer.seq(for: 0, after: seq) } catch { return error.parseError }
            numbered[i].seq = seq
            // Only a long record can make a canonical line over the limit.
            if recordBytes > EventParser.maxLineBytes / 4 {
                canonical.reset()
                canonical.write(numbered[i])
                if canonical.bytes.count > EventParser.maxLineBytes {
                    return .invalidValue(field: "(event)", reason: Refusal.lineTooLong(bytes: canonical.bytes.count).description)
                }
            }
        }
        router.setLastSeq(seq, of: number)
        let announce = router.pathToAnnounce(number)
        for (i, event) in numbered.enumerated() {
            batches[route.sink].append(event, route: number, announcing: i == 0 ? announce : nil, file: file, line: line)
        }
        if batches[route.sink].items.count >= batchEvents {
            guard queues[route.sink].push(batches[route.sink]) else { throw LogError(path: route.path, kind: .closed) }
            batches[route.sink] = WriterSink.Batch()
        }
        return nil
    }

    /// Flushes the batches, waits for the writer threads (every log closed)
    /// and gives what they stored, refused and failed with.
    func finish() -> (stored: Int, rejections: [StoreIngester.Rejection], failure: LogError?) {
        if !finished {
            finished = true
            for (i, batch) in batches.enumerated() where !batch.items.isEmpty { _ = queues[i].push(batch) }
            batches = batches.map { _ in WriterSink.Batch() }
            for queue in queues { queue.close() }
            for worker in workers { worker.join() }
            preambles.stop()
            // Even after a failure: what was stored stays stored.
            if !router.routes.isEmpty {
                do throws(LogError) { try store.syncLogs(router.paths) } catch { syncFailure = error }
            }
        }
        let failure = sinks.lazy.compactMap(\.failure).first ?? syncFailure
        return (sinks.reduce(0) { $0 + $1.stored }, sinks.flatMap(\.rejections), failure)
    }
}
