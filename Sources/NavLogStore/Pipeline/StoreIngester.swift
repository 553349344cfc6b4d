import NavLogCore

/// Reads NDJSON holding many sessions interleaved (as a collector writes
/// them), and `.navlog` files (a device's log of one session), into a
/// segment store (schemas/segment-store.md) through one ``SegmentWriter``.
/// Every non-blank input line is stored, found already stored (a counted
/// no-op), or rejected with its reason.
///
/// ```swift
/// let ingester = StoreIngester(store: try SegmentStore.create(at: "events"))
/// let report = try ingester.ingest(paths: ["a.ndjson", "-"]) { rejection in
///     print(rejection)            // file:line: reason
/// }
/// ```
///
/// Threads: the calling thread reads lines into chunks and hands each to a
/// validating thread (``IngestValidator``), which parses them while the
/// calling thread stores the chunk before (``StoreSink``, the one place
/// that numbers seqs). Lines are stored and rejections reported in input
/// order, on the calling thread. Memory is bounded by a few chunks in
/// flight and by the writer's sessions under way
/// (``SegmentWriterOptions/sessionsKept``): the writer counts sessions
/// without keeping the ids of those it has forgotten.
public final class StoreIngester {
    /// Settings.
    public struct Options: Sendable {
        /// How the store is written.
        public var writerOptions: SegmentWriterOptions
        /// Milliseconds after which what was stored is committed (synced)
        /// at the next chunk's end, or as soon as a pipe's input pauses,
        /// even when a commit is not full: how long a slow input (a
        /// collector's pipe) waits to be durable and seen by readers. 0
        /// commits after every chunk; `nil` only when a commit is full and at the end.
        public var commitInterval: Int?
        /// Lines read before they are handed on to be validated and
        /// stored (fewer when 512 KiB come first): with a commit interval
        /// of 0, a commit every this many lines. Small values are for tests.
        public var chunkLines: Int

        public init(writerOptions: SegmentWriterOptions = SegmentWriterOptions(), commitInterval: Int? = 1000,
                    chunkLines: Int = 4096) {
            self.writerOptions = writerOptions
            self.commitInterval = commitInterval.map { max($0, 0) }
            self.chunkLines = max(chunkLines, 1)
        }
    }

    /// A line that was not stored, with where it was, why, and its bytes.
    public struct Rejection: Sendable, CustomStringConvertible {
        /// The input's name as given (`-` for standard input).
        public var file: String
        /// 1-based line number in that input (for a `.navlog` input, the event's position).
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

    /// What an ingest did (counting lines).
    public typealias Report = StoreWriteReport

    /// Why the reading of an input ended early.
    private enum ReadingEnd: Error {
        case failed(SegmentStoreError)
        case stopped
    }

    /// What the last ``ingest(paths:onReject:onProgress:shouldStop:)`` did,
    /// set when it returns and when it throws: after a failure, the events
    /// stored before it (they stay stored) and the rejections reported.
    public private(set) var lastReport = Report(counting: .lines)

    /// The store written to, opened for writing (its lock held); the lock
    /// is released when the ingest ends.
    public let store: SegmentStore
    /// The settings.
    public let options: Options

    public init(store: SegmentStore, options: Options = Options()) {
        self.store = store
        self.options = options
    }

    /// Checks that every `.navlog` log among the inputs opens (its header
    /// and index read): what a caller asks before it makes a store for
    /// them, so that a damaged log leaves no store behind. NDJSON inputs are
    /// not opened here (a pipe's bytes are read once).
    ///
    /// - Throws: ``SegmentStoreError/io(_:)`` naming the first log that cannot be read.
    public static func checkInputs(_ paths: [String]) throws(SegmentStoreError) {
        for path in paths where InputKind.of(path).isLog {
            do { _ = try LogReader(path: path) } catch { throw .io(error) }
        }
    }

    /// Reads every input in order and stores its events, then closes the
    /// writer (the last commit synced, the lock released): what it returns
    /// is durable. `onReject` and `onProgress` run on the calling thread
    /// (`onProgress` every 16,384 lines and once at the end). `shouldStop`
    /// is asked after every chunk of lines handed out and between inputs:
    /// once it answers `true`, nothing more is read, what was read is
    /// stored or rejected, the store is closed, and the report says where
    /// reading stopped (``Report/stoppedAfter``).
    ///
    /// - Throws: ``SegmentStoreError`` when an input cannot be read
    ///   (``SegmentStoreError/io(_:)``) or the store cannot be written; what
    ///   was stored before stays stored.
    public func ingest(
        paths: [String],
        onReject: (Rejection) -> Void,
        onProgress: (Progress) -> Void = { _ in },
        shouldStop: () -> Bool = { false }
    ) throws(SegmentStoreError) -> Report {
        var report = Report(counting: .lines)
        lastReport = report
        let writer = try SegmentWriter(store: store, options: options.writerOptions)
        let sink = StoreSink(writer: writer)
        let toValidate = BoundedQueue<IngestChunk>(capacity: Self.chunksInFlight)
        let validated = BoundedQueue<IngestChunk>(capacity: Self.chunksInFlight)
        let validator = IngestValidator(input: toValidate, output: validated)
        let thread = WorkerThread { validator.run() }
        var failure: SegmentStoreError?
        do {
            try read(paths: paths, sink: sink, toValidate: toValidate, validated: validated, report: &report,
                     onReject: onReject, onProgress: onProgress, shouldStop: shouldStop)
        } catch {
            failure = error
        }
        toValidate.close()
        thread.join()
        report.stored = sink.stored
        report.duplicates = sink.duplicates
        report.sessions = sink.sessionsStored
        report.newSessions = sink.newSessions
        lastReport = report
        // Even after a failure: what was accepted is committed.
        do { try writer.close() } catch { failure = failure ?? error }
        // What the store holds of this run: a commit that failed (and what followed it) is not counted.
        report.stored = sink.committed
        report.projectionBehind = writer.projectionBehind
        lastReport = report
        if let failure { throw failure }
        return report
    }

    /// The reading side: reads lines into chunks, hands them to the
    /// validating thread, and stores what each chunk's lines came to, in
    /// input order.
    private func read(
        paths: [String], sink: StoreSink, toValidate: BoundedQueue<IngestChunk>, validated: BoundedQueue<IngestChunk>,
        report: inout Report, onReject: (Rejection) -> Void, onProgress: (Progress) -> Void, shouldStop: () -> Bool
    ) throws(SegmentStoreError) {
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        var inFlight = 0
        var spare: [IngestChunk] = []
        var parser = EventLineParser()
        var canonical = CanonicalWriter(capacity: 1024)
        var lastCommit = LogFile.monotonicMilliseconds()
        /// The input whose lines are being stored: each is numbered on its own (§8 "Numbering").
        var storing = 0

        func reject(_ refusal: Refusal, file: Int, line: Int, bytes: [UInt8]?) {
            report.rejected += 1
            progress.rejected += 1
            onReject(Rejection(file: paths[file], line: line, refusal: refusal, bytes: bytes))
        }

        /// Stores (or rejects) one validated line.
        /// `written`: the event's canonical line, when the validating thread wrote it.
        func storeLine(_ verdict: IngestChunk.Verdict, _ text: UnsafeRawBufferPointer, written: UnsafeRawBufferPointer? = nil,
                       file: Int, line: Int, overLimit: Bool) throws(SegmentStoreError) {
            if file != storing {
                storing = file
                sink.startInput()
            }
            let refusal: Refusal?
            switch verdict {
            case .blank:
                report.blankLines += 1
                return
            case .rejected(let why): refusal = why
            case .canonical(let session, let seq, let t): refusal = try sink.store(line: text, session: session, seq: seq, t: t)
            case .event(let event): refusal = try sink.store(event: event, written: written)
            }
            if let refusal { reject(refusal, file: file, line: line, bytes: overLimit ? nil : [UInt8](text)) }
        }

        func countLine(bytes: Int) {
            report.read += 1
            progress.linesRead += 1
            progress.bytesRead += Int64(bytes + 1)
            if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
        }

        /// Waits for the oldest chunk in flight and stores its lines.
        func finishOldest() throws(SegmentStoreError) {
            guard let chunk = validated.pop() else { throw .closed(store: store.path) }
            try finish(chunk)
        }

        /// Stores the lines of `chunk`, the oldest in flight, validated.
        func finish(_ chunk: IngestChunk) throws(SegmentStoreError) {
            inFlight -= 1
            for (i, line) in chunk.lines.enumerated() {
                try storeLine(chunk.verdicts[i], chunk.bytes(i), written: chunk.written(i), file: chunk.file, line: line.number,
                              overLimit: line.overLimit != nil)
            }
            spare.append(chunk)
            if let interval = options.commitInterval, LogFile.monotonicMilliseconds() - lastCommit >= Int64(interval) {
                try sink.writer.commit()
                lastCommit = LogFile.monotonicMilliseconds()
            }
        }

        func handOut(_ chunk: IngestChunk) throws(SegmentStoreError) {
            guard toValidate.push(chunk) else { throw .closed(store: store.path) }
            inFlight += 1
            while inFlight >= Self.chunksInFlight { try finishOldest() }
            // Those already validated are stored now, not when the next input comes.
            while let done = validated.tryPop() { try finish(done) }
        }

        func newChunk(file: Int) -> IngestChunk {
            let chunk = spare.popLast() ?? IngestChunk(linesTarget: options.chunkLines)
            chunk.reset(file: file)
            return chunk
        }

        /// Stores the events of a `.navlog` input, in order; damage other
        /// than a torn tail is rejected as the line after the last event read.
        func ingestLog(_ fileIndex: Int) throws(SegmentStoreError) -> Int {
            let path = paths[fileIndex]
            let log: LogReader
            do { log = try LogReader(path: path) } catch { throw .io(error) }
            var number = 0
            var failure: SegmentStoreError?
            do {
                try log.forEachContent { content in
                    var start = 0
                    while failure == nil, start < content.count {
                        let end = content[start...].firstIndex(of: 0x0A) ?? content.count
                        let text = UnsafeRawBufferPointer(rebasing: content[start..<end])
                        start = end + 1
                        number += 1
                        countLine(bytes: text.count)
                        do throws(SegmentStoreError) {
                            try storeLine(IngestValidator.verdict(text, &parser, &canonical), text, file: fileIndex, line: number, overLimit: false)
                        } catch { failure = error }
                    }
                }
            } catch { throw .io(error) }
            if let failure { throw failure }
            if let damage = log.damage, !damage.isTornTail {
                number += 1
                report.read += 1
                reject(.store(.corrupt(segment: path, offset: damage.offset, reason: damage.reason)), file: fileIndex,
                       line: number, bytes: nil)
            }
            return number
        }

        for (fileIndex, path) in paths.enumerated() {
            var lastLine = 0
            var stopped = false
            if InputKind.of(path).isLog {
                while inFlight > 0 { try finishOldest() }
                lastLine = try ingestLog(fileIndex)
            } else {
                let reader: NDJSONLineReader
                do { reader = try NDJSONLineReader(path: path) } catch {
                    while inFlight > 0 { try finishOldest() }
                    throw .io(LogError(reading: error))
                }
                var chunk = newChunk(file: fileIndex)
                // A pipe whose input pauses: what was read is stored and committed
                // once the commit interval has passed, without waiting for a full chunk.
                func commitWhatWasRead() throws(ReadingEnd) {
                    do throws(SegmentStoreError) {
                        if !chunk.lines.isEmpty {
                            try handOut(chunk)
                            chunk = newChunk(file: fileIndex)
                        }
                        while inFlight > 0 { try finishOldest() }
                        try sink.writer.commit()
                        lastCommit = LogFile.monotonicMilliseconds()
                    } catch { throw .failed(error) }
                }
                let interval = options.commitInterval
                do throws(NDJSONFailure<ReadingEnd>) {
                    try reader.forEachLine(wait: { interval.map { Int(lastCommit + Int64($0) - LogFile.monotonicMilliseconds()) } },
                                           paused: commitWhatWasRead,
                                           stopIfAsked: { () throws(ReadingEnd) in if shouldStop() { throw .stopped } }) { (line) throws(ReadingEnd) in
                        countLine(bytes: line.overLimitBytes ?? line.bytes.count)
                        chunk.add(line)
                        lastLine = line.number
                        if chunk.isFull {
                            do throws(SegmentStoreError) { try handOut(chunk) } catch { throw .failed(error) }
                            chunk = newChunk(file: fileIndex)
                            if shouldStop() { throw .stopped }
                        }
                    }
                } catch {
                    switch error {
                    case .read(let e):
                        // Lines read before the failure are still stored.
                        if !chunk.lines.isEmpty { try handOut(chunk) }
                        while inFlight > 0 { try finishOldest() }
                        throw .io(LogError(reading: e))
                    case .body(.failed(let e)): throw e
                    case .body(.stopped): stopped = true
                    }
                }
                if !chunk.lines.isEmpty { try handOut(chunk) }
            }
            // Asked between inputs too, so that a stop is not missed for
            // lack of a whole chunk; after the last input, there is nothing left to stop.
            if stopped || (fileIndex < paths.count - 1 && shouldStop()) {
                report.stoppedAfter = (path, lastLine)
                break
            }
        }
        while inFlight > 0 { try finishOldest() }
        onProgress(progress)
    }

    /// Chunks handed out and not yet stored.
    static let chunksInFlight = 4
}
