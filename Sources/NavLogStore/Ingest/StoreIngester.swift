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
/// Threads: the caller's reads lines in chunks and deals each line to the
/// thread that owns its session, found by skimming the line
/// (``SessionSkim``; a line that cannot be skimmed is parsed to learn it).
/// ``Options/writerThreads`` threads (``IngestWorker``) each own a share of
/// the sessions: they parse their lines, number them and append them to the
/// logs, compressing and writing; a line that is already canonical is
/// stored as it was read. A session's lines stay in input order, so seqs
/// are those of a one-thread ingest, and rejections are reported in input
/// order, on the calling thread, once their chunk is done. Memory is
/// bounded: a few chunks are in flight, and at most
/// ``Options/maxOpenWriters`` logs are open at once (the least recently used
/// is closed when another is needed, and reopened, continuing, if its
/// session comes back).
public final class StoreIngester {
    /// Settings.
    public struct Options: Sendable {
        /// Logs open for writing at once (each holds up to one block of raw lines).
        public var maxOpenWriters: Int
        /// Events handed to an import's writer thread at a time.
        public var batchEvents: Int
        /// Batches that may wait for an import's writer threads.
        public var queuedBatches: Int
        /// How the logs are written.
        public var writerOptions: LogWriterOptions
        /// Threads that parse and write (besides the caller's, which reads),
        /// each owning a share of the sessions.
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
        public var refusal: Refusal
        /// Why, as text.
        public var reason: String { refusal.description }
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
        /// When the ingest was asked to stop before the end of its input:
        /// the last line read, of which input. Every line up to it was
        /// stored or rejected; none after it was read.
        public var stoppedAfter: (file: String, line: Int)?
    }

    /// Why the reading of an input ended early.
    private enum ReadingEnd: Error {
        case failed(LogError)
        case stopped
    }

    /// What the last ``ingest(paths:onReject:onProgress:shouldStop:)`` did,
    /// set when it returns and when it throws: after a failure, the events
    /// stored before it (they stay stored) and the rejections reported.
    public private(set) var lastReport = Report()

    /// The store written to.
    public let store: Store
    /// The settings.
    public let options: Options

    public init(store: Store, options: Options = Options()) {
        self.store = store
        self.options = options
    }

    /// Reads every input in order and stores its events. `onReject` and
    /// `onProgress` run on the calling thread (`onProgress` every 16,384 lines
    /// and once at the end). `shouldStop` is asked after every chunk of
    /// lines handed out: once it answers `true`, nothing more is read, what
    /// was read is stored or rejected, the logs are closed and made durable,
    /// and the report says where reading stopped (``Report/stoppedAfter``).
    ///
    /// - Throws: ``LogError`` when an input cannot be read or a log cannot be
    ///   opened or written; what was stored before stays stored.
    public func ingest(
        paths: [String],
        onReject: (Rejection) -> Void,
        onProgress: (Progress) -> Void = { _ in },
        shouldStop: () -> Bool = { false }
    ) throws(LogError) -> Report {
        let n = options.writerThreads
        let locator = LogLocator(store: store)
        let queues = (0..<n).map { _ in BoundedQueue<IngestChunk>(capacity: Self.chunksInFlight) }
        let perThread = max(options.maxOpenWriters / n, 1)
        // Logs, and new logs' names, are made durable together at the end;
        // new logs' preambles on a thread of their own.
        var writerOptions = options.writerOptions
        writerOptions.syncsDirectoryOnCreate = false
        writerOptions.syncsOnClose = false
        let preambles = PreambleSyncer(directory: store.directory)
        let workers = (0..<n).map { [writerOptions] i in
            IngestWorker(index: i, files: paths, locator: locator, maxOpenWriters: perThread, writerOptions: writerOptions,
                         preambleSyncer: preambles)
        }
        let threads = (0..<n).map { i in WorkerThread { [worker = workers[i], queue = queues[i]] in worker.run(queue) } }
        var report = Report()
        var failure: LogError?
        do {
            try read(paths: paths, into: queues, report: &report, onReject: onReject, onProgress: onProgress,
                     shouldStop: shouldStop)
        } catch {
            failure = error
        }
        for queue in queues { queue.close() }
        for thread in threads { thread.join() }
        preambles.stop()
        // Counted by the threads, so that chunks left unreported by a
        // failure count too, and a session whose lines were all refused
        // does not.
        report.stored = workers.reduce(0) { $0 + $1.storedTotal }
        report.sessions = workers.reduce(0) { $0 + $1.sessionsStored }
        report.newLogs = workers.reduce(0) { $0 + $1.newLogsStored }
        lastReport = report
        // Even after a failure: what was stored stays stored.
        var syncFailure: LogError?
        let logs = locator.paths
        if !logs.isEmpty {
            do throws(LogError) { try store.syncLogs(logs) } catch { syncFailure = error }
        }
        if let error = workers.lazy.compactMap(\.failure).first { throw error }
        if let failure { throw failure }
        if let syncFailure { throw syncFailure }
        return report
    }

    /// The reading side: reads lines into chunks, deals each line to the
    /// thread owning its session, and — in input order — reports what each
    /// chunk's lines came to once its threads are done with it.
    private func read(
        paths: [String], into queues: [BoundedQueue<IngestChunk>], report: inout Report,
        onReject: (Rejection) -> Void, onProgress: (Progress) -> Void, shouldStop: () -> Bool
    ) throws(LogError) {
        let n = queues.count
        let dealer = SessionDealer(threads: n)
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        var inFlight: [IngestChunk] = []
        var spare: [IngestChunk] = []

        let inputs = InputBuffers()

        /// Waits for the oldest chunk in flight and reports it.
        func finishOldest() throws(LogError) {
            let chunk = inFlight.removeFirst()
            chunk.waitUntilDone()
            chunk.releaseInputs()
            for rejection in chunk.allRejections() {
                report.rejected += 1
                progress.rejected += 1
                onReject(rejection)
            }
            spare.append(chunk)
            // A thread stopped: its own error is the one to report.
            if chunk.failed { throw LogError(path: paths[chunk.file], kind: .closed) }
        }

        func handOut(_ chunk: IngestChunk) throws(LogError) {
            chunk.handOut()
            for queue in queues { guard queue.push(chunk) else { throw LogError(path: paths[chunk.file], kind: .closed) } }
            inFlight.append(chunk)
            while inFlight.count >= Self.chunksInFlight { try finishOldest() }
        }

        func newChunk(file: Int) -> IngestChunk {
            let chunk = spare.popLast() ?? IngestChunk(threads: n)
            chunk.reset(file: file)
            return chunk
        }

        /// Deals one line to its session's thread (or refuses it here).
        func deal(_ line: NDJSONLineReader.Line, to chunk: IngestChunk, path: String) {
            let length = line.overLimitBytes ?? line.bytes.count
            report.lines += 1
            progress.linesRead += 1
            progress.bytesRead += Int64(length + 1)
            chunk.countLine(bytes: length)
            if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
            if let over = line.overLimitBytes {
                chunk.rejections.append(Rejection(file: path, line: line.number,
                    refusal: .line(.lineTooLong(bytes: over, limit: EventParser.maxLineBytes)), bytes: nil))
                return
            }
            let text = line.bytes
            if NDJSONLineReader.isBlank(text) {
                report.blankLines += 1
                return
            }
            do throws(EventParseError) {
                try dealer.deal(text, number: line.number, to: chunk, inFlight: inFlight)
                chunk.hold(inputs.current!, number: inputs.currentNumber)
            } catch {
                chunk.rejections.append(Rejection(file: path, line: line.number, refusal: .line(error),
                                                  bytes: [UInt8](text)))
            }
        }

        do throws(LogError) {
            for (fileIndex, path) in paths.enumerated() {
                let reader: NDJSONLineReader
                do { reader = try NDJSONLineReader(path: path) } catch {
                    throw LogError(reading: error)
                }
                var chunk = newChunk(file: fileIndex)
                var lastLine = 0
                var stopped = false
                do throws(NDJSONFailure<ReadingEnd>) {
                    try reader.forEachLine(readingInto: { inputs.next(capacity: reader.bufferCapacity) }) {
                        (line) throws(ReadingEnd) in
                        deal(line, to: chunk, path: path)
                        lastLine = line.number
                        if chunk.lineCount >= Self.chunkLines || chunk.bytesRead >= Self.chunkBytes {
                            do throws(LogError) { try handOut(chunk) } catch { throw .failed(error) }
                            chunk = newChunk(file: fileIndex)
                            if shouldStop() { throw .stopped }
                        }
                    }
                } catch {
                    switch error {
                    case .read(let e):
                        // Lines read before the failure are still stored.
                        if chunk.lineCount > 0 { try handOut(chunk) }
                        while !inFlight.isEmpty { try finishOldest() }
                        throw LogError(reading: e)
                    case .body(.failed(let e)): throw e
                    case .body(.stopped): stopped = true
                    }
                }
                if chunk.lineCount > 0 { try handOut(chunk) }
                // Asked between inputs too, so that a stop is not missed for
                // lack of a whole chunk; after the last input, there is nothing left to stop.
                if stopped || (fileIndex < paths.count - 1 && shouldStop()) {
                    report.stoppedAfter = (path, lastLine)
                    break
                }
            }
            while !inFlight.isEmpty { try finishOldest() }
        } catch {
            // A thread stopped: its own error is the one to report.
            if case .closed = error.kind { return }
            throw error
        }
        onProgress(progress)
    }

    /// The buffers an ingest reads its input into. The chunks whose lines
    /// are in a buffer hold it until they are done, so the threads read the
    /// lines where they were read, not copies; a buffer is read into again
    /// once no chunk holds it.
    private final class InputBuffers {
        /// The buffer being read into, and its number (one more for each).
        @exclusivity(unchecked) private(set) var current: ByteBuffer?
        @exclusivity(unchecked) private(set) var currentNumber = 0
        /// Buffers read into before, perhaps still held by chunks.
        @exclusivity(unchecked) private var used: [ByteBuffer] = []

        /// The buffer to read into next: one no chunk holds any more, or a new one.
        func next(capacity: Int) -> ByteBuffer {
            if let current { used.append(current) }
            current = nil
            var next: ByteBuffer? = nil
            for k in used.indices where isKnownUniquelyReferenced(&used[k]) && used[k].capacity >= capacity {
                next = used.remove(at: k)
                break
            }
            let buffer = next ?? ByteBuffer(capacity: capacity)
            current = buffer
            currentNumber += 1
            return buffer
        }
    }

    /// Lines, and bytes, read before a chunk is handed out.
    static let chunkLines = 4096
    static let chunkBytes: Int64 = 512 << 10
    /// Chunks handed out and not yet reported.
    static let chunksInFlight = 8
}
