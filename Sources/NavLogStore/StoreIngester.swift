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
/// Threads: the caller's reads, parses and numbers lines (and reports
/// rejections and progress, on the caller's thread); ``Options/writerThreads``
/// writer threads append to the logs, compressing and writing, each serving
/// its own share of the sessions (so a session's events stay in order).
/// Memory is bounded: lines stream through queues of at most
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

        public init(maxOpenWriters: Int = 128, batchEvents: Int = 4096, queuedBatches: Int = 8,
                    writerOptions: LogWriterOptions = LogWriterOptions(), writerThreads: Int = 2) {
            self.writerThreads = max(writerThreads, 1)
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

    /// One event on its way to the writer thread.
    struct Item: Sendable {
        var event: Event
        var path: String
        var file: Int
        var line: Int
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
        let queues = (0..<n).map { _ in BoundedQueue<[Item]>(capacity: max(options.queuedBatches / n, 1)) }
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

    /// The reading side: parse, number, route, batch.
    private func read(
        paths: [String], into queues: [BoundedQueue<[Item]>], report: inout Report,
        onReject: (Rejection) -> Void, onProgress: (Progress) -> Void
    ) throws(LogError) {
        // Sessions are told apart by their exact bytes (Swift's String `==`
        // is canonical equivalence: "e\u{301}" == "\u{E9}").
        var routes: [SessionKey: (path: String, lastSeq: Int, sink: Int)] = [:]
        var claimed: Set<String> = []           // paths given to a session in this run
        var batches: [[Item]] = Array(repeating: [], count: queues.count)
        var nextSink = 0
        var parser = EventLineParser()
        var canonical = CanonicalWriter(capacity: 1024)
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        let store = self.store
        let batchEvents = options.batchEvents
        // Lines this long may grow over the limit once canonical (integer
        // ids become strings, seq is filled in): they are checked here, so
        // the writer never refuses an event the sequencer numbered.
        let checkCanonicalAbove = EventParser.maxLineBytes * 3 / 4

        for (fileIndex, path) in paths.enumerated() {
            let lines: NDJSONLineReader
            do { lines = try NDJSONLineReader(path: path) } catch {
                throw LogError(path: path, kind: .io(call: error.operation, errno: error.errno))
            }
            do throws(NDJSONFailure<LogError>) {
                try lines.forEachLine { (line) throws(LogError) in
                    report.lines += 1
                    progress.linesRead += 1
                    progress.bytesRead += Int64((line.overLimitBytes ?? line.bytes.count) + 1)
                    if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
                    if line.isBlank {
                        report.blankLines += 1
                        return
                    }
                    func reject(_ reason: String, keep: Bool = true) {
                        report.rejected += 1
                        progress.rejected += 1
                        onReject(Rejection(file: path, line: line.number, reason: reason,
                                           bytes: keep ? [UInt8](line.bytes) : nil))
                    }
                    if let length = line.overLimitBytes {
                        return reject(EventParseError.lineTooLong(bytes: length, limit: EventParser.maxLineBytes).description, keep: false)
                    }
                    var event: Event
                    do throws(EventParseError) { event = try parser.parse(line.bytes) } catch { return reject(error.description) }
                    // A session seen for the first time: find its log, continue its seq.
                    let key = SessionKey(event.session)
                    var route: (path: String, lastSeq: Int, sink: Int)
                    if let known = routes[key] {
                        route = known
                    } else {
                        let (existing, free) = try store.locate(event.session, claimed: claimed)
                        route = (existing ?? free, 0, nextSink)
                        nextSink = (nextSink + 1) % queues.count
                        if let existing {
                            route.lastSeq = try LogReader(path: existing).lastSeq ?? 0
                        } else {
                            report.newLogs += 1
                        }
                        routes[key] = route
                        claimed.insert(route.path)
                        report.sessions += 1
                    }
                    // Numbering as Sequencer does (contract §5), per exact session bytes.
                    if event.seq == 0 {
                        guard route.lastSeq < Int.max else { return reject("field \"seq\": session has reached the largest seq") }
                        event.seq = route.lastSeq + 1
                    } else if event.seq <= route.lastSeq {
                        return reject(EventParseError.seqNotIncreasing(seq: event.seq, previous: route.lastSeq).description)
                    }
                    if line.bytes.count > checkCanonicalAbove {
                        canonical.reset()
                        canonical.write(event)
                        if canonical.bytes.count > EventParser.maxLineBytes {
                            return reject("canonical line is \(canonical.bytes.count) bytes, over the limit of \(EventParser.maxLineBytes)")
                        }
                    }
                    routes[key]!.lastSeq = event.seq
                    batches[route.sink].append(Item(event: event, path: route.path, file: fileIndex, line: line.number))
                    if batches[route.sink].count >= batchEvents {
                        guard queues[route.sink].push(batches[route.sink]) else { throw LogError(path: route.path, kind: .closed) }
                        batches[route.sink].removeAll(keepingCapacity: true)
                    }
                }
            } catch {
                switch error {
                case .read(let e): throw LogError(path: path, kind: .io(call: e.operation, errno: e.errno))
                case .body(let e):
                    // The writer thread stopped: its own error is the one to report.
                    if case .closed = e.kind { return }
                    throw e
                }
            }
        }
        for (i, batch) in batches.enumerated() where !batch.isEmpty { _ = queues[i].push(batch) }
        onProgress(progress)
    }
}

/// A session id compared by its exact UTF-8 bytes.
struct SessionKey: Hashable {
    let bytes: [UInt8]
    init(_ session: String) { bytes = Array(session.utf8) }
}

/// The writing side of an ingest: appends each event to its session's log,
/// keeping at most `maxOpenWriters` logs open (least recently used closed
/// first). Runs on its own thread; its results are read after `join()`.
final class WriterSink: @unchecked Sendable {
    private let maxOpenWriters: Int
    private let writerOptions: LogWriterOptions
    private let files: [String]
    private var open: [String: (writer: LogWriter, lastUse: Int)] = [:]
    private var clock = 0
    private(set) var stored = 0
    private(set) var rejections: [StoreIngester.Rejection] = []
    private(set) var failure: LogError?

    init(maxOpenWriters: Int, writerOptions: LogWriterOptions, files: [String]) {
        self.maxOpenWriters = maxOpenWriters
        self.writerOptions = writerOptions
        self.files = files
    }

    func run(_ queue: BoundedQueue<[StoreIngester.Item]>) {
        while let batch = queue.pop() {
            guard failure == nil else { continue }
            do {
                for item in batch { try append(item) }
            } catch {
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

    private func append(_ item: StoreIngester.Item) throws(LogError) {
        clock += 1
        let writer: LogWriter
        if let entry = open[item.path] {
            writer = entry.writer
            open[item.path]!.lastUse = clock
        } else {
            if open.count >= maxOpenWriters, let oldest = open.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                open.removeValue(forKey: oldest.key)
                try oldest.value.writer.close()
            }
            writer = try LogWriter(path: item.path, options: writerOptions)
            open[item.path] = (writer, clock)
        }
        do {
            try writer.append(item.event)
            stored += 1
        } catch {
            // Checked on the reading side already; kept as a rejection if it ever happens.
            guard case .rejected(let why) = error.kind else { throw error }
            rejections.append(StoreIngester.Rejection(file: files[item.file], line: item.line, reason: why, bytes: nil))
        }
    }
}
