import NavLogCore

/// Reads NDJSON holding many sessions interleaved (as a collector writes
/// them) into a ``Store``: one log per session, appended to when it exists
/// (its seq goes on). Every non-blank input line is stored or rejected.
///
/// ```swift
/// let ingester = StoreIngester(store: try Store(directory: "logs", create: true))
/// let report = try ingester.ingest(paths: ["a.ndjson", "-"]) { rejection in
///     print(rejection)            // file:line: reason
/// }
/// ```
///
/// Threads: the caller's reads lines in chunks, which
/// ``Options/parseThreads`` threads parse (the caller helps rather than
/// waits); the caller then numbers and routes each chunk's events in input
/// order (and reports rejections and progress, on its own thread);
/// ``Options/writerThreads`` writer threads append to the logs, compressing
/// and writing, each serving its own share of the sessions (so a session's
/// events stay in order). A line that is already canonical is stored as it
/// was read, not encoded again. Memory is bounded: a few chunks are parsed
/// at a time, lines stream through queues of at most
/// ``Options/queuedBatches`` batches, and at most ``Options/maxOpenWriters``
/// logs are open at once (the least recently used is closed when another is
/// needed, and reopened, continuing, if its session comes back).
public final class StoreIngester {
    /// Settings.
    public struct Options: Sendable {
        /// Logs open for writing at once (each holds up to one block of raw lines).
        public var maxOpenWriters: Int
        /// Events handed to the writer thread at a time.
        public var batchEvents: Int
        /// Batches that may wait for the writer thread.
        public var queuedBatches: Int
        /// How the logs are written.
        public var writerOptions: LogWriterOptions
        /// Threads writing logs (besides the caller's, which reads).
        public var writerThreads: Int
        /// Threads parsing input lines (besides the caller's, which helps).
        public var parseThreads: Int

        public init(maxOpenWriters: Int = 128, batchEvents: Int = 4096, queuedBatches: Int = 8,
                    writerOptions: LogWriterOptions = LogWriterOptions(), writerThreads: Int = 2, parseThreads: Int = 2) {
            self.writerThreads = max(writerThreads, 1)
            self.parseThreads = max(parseThreads, 0)
            self.maxOpenWriters = max(maxOpenWriters, 1)
            self.batchEvents = max(batchEvents, 1)
            self.queuedBatches = max(queuedBatches, 1)
            self.writerOptions = writerOptions
        }
    }

    /// A line that was not stored, with where it was, why, and its bytes.
    public struct Rejection: Sendable, CustomStringConvertible {
        /// The input's name as given (`-` for standard input).
        public var file: String
        /// 1-based line number in that input.
        public var line: Int
        /// Why.
        public var reason: String
        /// The line exactly as read, without its `\n`; `nil` for a line over
        /// the length limit, which is read past, not kept.
        public var bytes: [UInt8]?

        /// `file:line: reason`.
        public var description: String { "\(file == "-" ? "<stdin>" : file):\(line): \(reason)" }
    }

    /// How far the input has been read, for a progress display.
    public struct Progress: Sendable {
        /// Bytes read so far over all inputs (lines and their `\n`).
        public var bytesRead: Int64
        /// Lines read so far.
        public var linesRead: Int
        /// Lines rejected so far.
        public var rejected: Int
    }

    /// What an ingest did.
    public struct Report: Sendable {
        /// Lines read, blank ones included.
        public var lines = 0
        /// Blank lines (skipped: neither stored nor rejected).
        public var blankLines = 0
        /// Events stored.
        public var stored = 0
        /// Lines rejected.
        public var rejected = 0
        /// Sessions that got events.
        public var sessions = 0
        /// Of those, sessions whose log did not exist before.
        public var newLogs = 0
    }

    /// The store written to.
    public let store: Store
    /// The settings.
    public let options: Options

    public init(store: Store, options: Options = Options()) {
        self.store = store
        self.options = options
    }

    /// One event on its way to a writer thread.
    struct Item: Sendable {
        var event: Event
        /// Its session's number in this run (the writer's key for the log).
        var route: Int
        var file: Int
        var line: Int
        /// Where its input line is in the batch's ``Batch/lines`` when the
        /// line is canonical and kept as it is (`lineLength` -1: it is not).
        var lineStart: Int
        var lineLength: Int
    }

    /// Events handed to a writer thread at once, with the canonical input
    /// lines they keep.
    struct Batch: Sendable {
        var items: [Item] = []
        var lines: [UInt8] = []
        /// The logs' paths of the sessions this batch is the first to name.
        var paths: [(route: Int, path: String)] = []

        /// Adds an event of session `route`; `line` is its input line when
        /// that is canonical and to be stored as it is.
        mutating func append(_ event: consuming Event, route: Int, announcing path: String?, file: Int, line number: Int,
                             canonicalLine line: UnsafeRawBufferPointer?) {
            if let path { paths.append((route, path)) }
            let start = lines.count
            if let line { lines.append(contentsOf: line) }
            items.append(Item(event: event, route: route, file: file, line: number,
                              lineStart: start, lineLength: line?.count ?? -1))
        }
    }

    /// Reads every input in order and stores its events. `onReject` and
    /// `onProgress` run on the calling thread (`onProgress` every 16,384 lines
    /// and once at the end).
    ///
    /// - Throws: ``LogError`` when an input cannot be read or a log cannot be
    ///   opened or written; what was stored before stays stored.
    public func ingest(
        paths: [String],
        onReject: (Rejection) -> Void,
        onProgress: (Progress) -> Void = { _ in }
    ) throws(LogError) -> Report {
        let n = options.writerThreads
        let queues = (0..<n).map { _ in BoundedQueue<Batch>(capacity: max(options.queuedBatches / n, 1)) }
        let perSink = max(options.maxOpenWriters / n, 1)
        let sinks = (0..<n).map { _ in WriterSink(maxOpenWriters: perSink, writerOptions: options.writerOptions, files: paths) }
        let workers = (0..<n).map { i in WorkerThread { [sink = sinks[i], queue = queues[i]] in sink.run(queue) } }
        var report = Report()
        var failure: LogError?
        do {
            try read(paths: paths, into: queues, report: &report, onReject: onReject, onProgress: onProgress)
        } catch {
            failure = error
        }
        for queue in queues { queue.close() }
        for worker in workers { worker.join() }
        report.stored = 0
        for sink in sinks {
            for rejection in sink.rejections {
                report.rejected += 1
                onReject(rejection)
            }
            report.stored += sink.stored
        }
        if let error = sinks.lazy.compactMap(\.failure).first { throw error }
        if let failure { throw failure }
        return report
    }

    /// The reading side: read lines in chunks, parse them on the pool's
    /// threads, then — in input order, on this thread — number, route and
    /// batch them.
    private func read(
        paths: [String], into queues: [BoundedQueue<Batch>], report: inout Report,
        onReject: (Rejection) -> Void, onProgress: (Progress) -> Void
    ) throws(LogError) {
        // Sessions are told apart by their exact bytes (Swift's String `==`
        // is canonical equivalence: "e\u{301}" == "\u{E9}").
        var router = SessionRouter(store: store, sinks: queues.count)
        defer {
            report.sessions = router.routes.count
            report.newLogs = router.newLogs
        }
        var batches: [Batch] = Array(repeating: Batch(), count: queues.count)
        var canonical = CanonicalWriter(capacity: 1024)
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        let batchEvents = options.batchEvents
        // Lines this long may grow over the limit once canonical (integer
        // ids become strings, seq is filled in): they are checked here, so
        // the writer never refuses an event the sequencer numbered.
        let checkCanonicalAbove = EventParser.maxLineBytes * 3 / 4
        let pool = LineParsePool(threads: options.parseThreads, window: 2 * options.parseThreads + 2)
        defer { pool.stop() }

        /// Numbers, routes and batches one parsed chunk's lines.
        func take(_ chunk: LineChunk) throws(LogError) {
            let path = paths[chunk.file]
            for i in chunk.lines.indices {
                let line = chunk.lines[i]
                report.lines += 1
                progress.linesRead += 1
                progress.bytesRead += Int64((line.overLimitBytes ?? line.length) + 1)
                if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
                func reject(_ reason: String, keep: Bool = true) {
                    report.rejected += 1
                    progress.rejected += 1
                    onReject(Rejection(file: path, line: line.number, reason: reason,
                                       bytes: keep ? chunk.withLine(i) { [UInt8]($0) } : nil))
                }
                var event: Event
                var keepsLine: Bool
                switch chunk.takeParsed(i) {
                case .blank:
                    report.blankLines += 1
                    continue
                case .overLimit(let length):
                    reject(EventParseError.lineTooLong(bytes: length, limit: EventParser.maxLineBytes).description, keep: false)
                    continue
                case .rejected(let error):
                    reject(error.description)
                    continue
                case .event(let parsedEvent, let canonical):
                    event = parsedEvent
                    // A line already canonical with its own seq is stored as it is.
                    keepsLine = canonical && event.seq != 0
                }
                // A session seen for the first time: find its log, continue its seq.
                let number = try router.number(of: event.session)
                let route = router.routes[number]
                // Numbering as Sequencer does (contract §5), per exact session bytes.
                if event.seq == 0 {
                    guard route.lastSeq < Int.max else {
                        reject("field \"seq\": session has reached the largest seq")
                        continue
                    }
                    event.seq = route.lastSeq + 1
                } else if event.seq <= route.lastSeq {
                    reject(EventParseError.seqNotIncreasing(seq: event.seq, previous: route.lastSeq).description)
                    continue
                }
                if line.length > checkCanonicalAbove {
                    canonical.reset()
                    canonical.write(event)
                    if canonical.bytes.count > EventParser.maxLineBytes {
                        reject("canonical line is \(canonical.bytes.count) bytes, over the limit of \(EventParser.maxLineBytes)")
                        continue
                    }
                }
                router.setLastSeq(event.seq, of: number)
                let sink = route.sink
                let announce = router.pathToAnnounce(number)
                chunk.withLine(i) { text in
                    batches[sink].append(event, route: number, announcing: announce, file: chunk.file, line: line.number,
                                         canonicalLine: keepsLine ? text : nil)
                }
                if batches[sink].items.count >= batchEvents {
                    let batch = batches[sink]
                    batches[sink] = Batch()
                    batches[sink].items.reserveCapacity(batchEvents)
                    batches[sink].lines.reserveCapacity(batch.lines.count)
                    guard queues[sink].push(batch) else { throw LogError(path: route.path, kind: .closed) }
                }
            }
        }

        func submit(_ chunk: LineChunk) throws(LogError) {
            while pool.isFull, let oldest = pool.next() { try take(oldest) }
            pool.submit(chunk)
        }

        do throws(LogError) {
            for (fileIndex, path) in paths.enumerated() {
                let lines: NDJSONLineReader
                do { lines = try NDJSONLineReader(path: path) } catch {
                    throw LogError(path: path, kind: .io(call: error.operation, errno: error.errno))
                }
                var chunk = LineChunk(file: fileIndex, capacity: Self.chunkBytes)
                do throws(NDJSONFailure<LogError>) {
                    try lines.forEachLine { (line) throws(LogError) in
                        chunk.add(line)
                        if chunk.lines.count >= Self.chunkLines || chunk.bytes.count >= Self.chunkBytes {
                            try submit(chunk)
                            chunk = LineChunk(file: fileIndex, capacity: Self.chunkBytes)
                        }
                    }
                } catch {
                    switch error {
                    case .read(let e):
                        // Lines read before the failure are still stored.
                        if !chunk.lines.isEmpty { try submit(chunk) }
                        while let oldest = pool.next() { try take(oldest) }
                        throw LogError(path: path, kind: .io(call: e.operation, errno: e.errno))
                    case .body(let e): throw e
                    }
                }
                if !chunk.lines.isEmpty { try submit(chunk) }
            }
            while let oldest = pool.next() { try take(oldest) }
        } catch {
            // A writer thread stopped: its own error is the one to report.
            if case .closed = error.kind { return }
            throw error
        }
        for (i, batch) in batches.enumerated() where !batch.items.isEmpty { _ = queues[i].push(batch) }
        onProgress(progress)
    }

    /// Lines, and bytes, read before a chunk goes to be parsed.
    static let chunkLines = 1024
    static let chunkBytes = 128 << 10
}

/// The writing side of an ingest: appends each event to its session's log,
/// keeping at most `maxOpenWriters` logs open (least recently used closed
/// first). Runs on its own thread; its results are read after `join()`.
final class WriterSink: @unchecked Sendable {
    private let maxOpenWriters: Int
    private let writerOptions: LogWriterOptions
    private let files: [String]
    private var open: [Int: (writer: LogWriter, lastUse: Int)] = [:]
    /// The path of each session's log, by route number.
    private var paths: [Int: String] = [:]
    private var clock = 0
    private(set) var stored = 0
    private(set) var rejections: [StoreIngester.Rejection] = []
    private(set) var failure: LogError?

    init(maxOpenWriters: Int, writerOptions: LogWriterOptions, files: [String]) {
        self.maxOpenWriters = maxOpenWriters
        self.writerOptions = writerOptions
        self.files = files
    }

    func run(_ queue: BoundedQueue<StoreIngester.Batch>) {
        while let batch = queue.pop() {
            guard failure == nil else { continue }
            for (route, path) in batch.paths { paths[route] = path }
            let error: LogError? = batch.lines.withUnsafeBytes { lines in
                batch.items.withUnsafeBufferPointer { items in
                    do throws(LogError) {
                        for i in items.indices { try append(items[i], lines: lines) }
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            if let error {
                failure = error
                queue.fail()
            }
        }
        // Every log is closed (made durable), even after a failure elsewhere:
        // what was stored stays stored.
        for (_, entry) in open {
            do { try entry.writer.close() } catch { if failure == nil { failure = error } }
        }
        open.removeAll()
    }

    private func append(_ item: StoreIngester.Item, lines: UnsafeRawBufferPointer) throws(LogError) {
        clock += 1
        let writer: LogWriter
        if let entry = open[item.route] {
            writer = entry.writer
            open[item.route]!.lastUse = clock
        } else {
            if open.count >= maxOpenWriters, let oldest = open.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                open.removeValue(forKey: oldest.key)
                try oldest.value.writer.close()
            }
            writer = try LogWriter(path: paths[item.route]!, options: writerOptions)
            open[item.route] = (writer, clock)
        }
        do {
            if item.lineLength >= 0 {
                try writer.append(item.event, canonicalLine: UnsafeRawBufferPointer(rebasing: lines[item.lineStart..<item.lineStart + item.lineLength]))
            } else {
                try writer.append(item.event)
            }
            stored += 1
        } catch {
            // Checked on the reading side already; kept as a rejection if it ever happens.
            guard case .rejected(let why) = error.kind else { throw error }
            rejections.append(StoreIngester.Rejection(file: files[item.file], line: item.line, reason: why, bytes: nil))
        }
    }
}
