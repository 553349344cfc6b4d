import NavLogCore

/// The writing side of an import: appends each event to its session's log,
/// keeping at most `maxOpenWriters` logs open (``OpenLogs``). Runs on its
/// own thread; its results are read after `join()`.
final class WriterSink: @unchecked Sendable {
    /// One event on its way to a writer thread.
    struct Item: Sendable {
        var event: Event
        /// Its session's number in this run (the writer's key for the log).
        var route: Int
        var file: Int
        var line: Int
    }

    /// Events handed to a writer thread at once.
    struct Batch: Sendable {
        var items: [Item] = []
        /// The logs' paths of the sessions this batch is the first to name.
        var paths: [(route: Int, path: String)] = []

        /// Adds an event of session `route`.
        mutating func append(_ event: consuming Event, route: Int, announcing path: String?, file: Int, line number: Int) {
            if let path { paths.append((route, path)) }
            items.append(Item(event: event, route: route, file: file, line: number))
        }
    }

    private let logs: OpenLogs
    private let files: [String]
    /// The path of each session's log, by route number.
    private var paths: [Int: String] = [:]
    private(set) var stored = 0
    private(set) var rejections: [StoreIngester.Rejection] = []
    private(set) var failure: LogError?

    init(maxOpenWriters: Int, writerOptions: LogWriterOptions, preambleSyncer: PreambleSyncer, files: [String]) {
        self.logs = OpenLogs(limit: maxOpenWriters, options: writerOptions, preambleSyncer: preambleSyncer)
        self.files = files
    }

    func run(_ queue: BoundedQueue<Batch>) {
        while let batch = queue.pop() {
            guard failure == nil else { continue }
            for (route, path) in batch.paths { paths[route] = path }
            do throws(LogError) {
                for item in batch.items { try append(item) }
            } catch {
                failure = error
                queue.fail()
            }
        }
        // Every log is closed (made durable with the others at the end), even
        // after a failure elsewhere: what was stored stays stored.
        if let error = logs.closeAll(), failure == nil { failure = error }
    }

    private func append(_ item: Item) throws(LogError) {
        let writer = try logs.writer(for: item.route, path: paths[item.route]!)
        do {
            try writer.append(item.event)
            stored += 1
        } catch {
            // Checked on the reading side already; kept as a rejection if it ever happens.
            guard case .rejected(let why) = error.kind else { throw error }
            rejections.append(StoreIngester.Rejection(file: files[item.file], line: item.line, refusal: why, bytes: nil))
        }
    }
}
