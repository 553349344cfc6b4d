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
    /// is asked after every chunk of lines handed out, while a pipe's
    /// writer is quiet, and between inputs: once it answers `true`, nothing
    /// more is read, what was read is stored or rejected, the store is
    /// closed, and the report says where reading stopped (``Report/stoppedAfter``).
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
        lastReport = Report(counting: .lines)
        let toValidate = BoundedQueue<IngestChunk>(capacity: Self.chunksInFlight)
        let validated = BoundedQueue<IngestChunk>(capacity: Self.chunksInFlight)
        let validator = IngestValidator(input: toValidate, output: validated)
        let thread = WorkerThread { validator.run() }
        defer {
            toValidate.close()
            thread.join()
        }
        // The reading side: lines into chunks, handed to the validating thread; what each chunk's
        // lines came to is stored in input order (a chunk may be stored while the next input is read).
        typealias End = StoreWriteRun.End
        var inFlight = 0
        var spare: [IngestChunk] = []
        var parser = EventLineParser()
        var canonical = CanonicalWriter(capacity: 1024)
        /// The input whose lines are being stored: each is numbered on its own (§8 "Numbering").
        var storing = 0

        /// Stores (or rejects) one validated line; `written`: its canonical line, when the validating thread wrote it.
        func storeLine(_ verdict: IngestChunk.Verdict, _ text: UnsafeRawBufferPointer, written: IngestChunk.Written? = nil,
                   file: Int, line: Int, overLimit: Bool, _ run: StoreWriteRun) throws(End) {
            if file != storing {
                storing = file
                run.sink.startInput()
            }
            if case .blank = verdict { return run.countBlank() }
            if let refusal = try run.storing({ () throws(SegmentStoreError) in try run.sink.store(verdict, line: text, written: written) }) {
                run.reject(refusal, file: file, line: line, bytes: overLimit ? nil : [UInt8](text))
            }
        }

        /// Waits for the chunks in flight (`all`, or the oldest) and stores their lines.
        func finishInFlight(_ run: StoreWriteRun, all: Bool = true) throws(End) {
            repeat {
                guard inFlight > 0 else { return }
                guard let chunk = validated.pop() else { throw .store(.closed(store: store.path)) }
                try finish(chunk, run)
            } while all
        }

        /// Stores the lines of `chunk`, the oldest in flight, validated.
        func finish(_ chunk: IngestChunk, _ run: StoreWriteRun) throws(End) {
            inFlight -= 1
            for (i, line) in chunk.lines.enumerated() {
                try storeLine(chunk.verdicts[i], chunk.bytes(i), written: chunk.written(i), file: chunk.file, line: line.number,
                              overLimit: line.overLimit != nil, run)
            }
            spare.append(chunk)
            try run.commitIfDue()
        }

        func handOut(_ chunk: IngestChunk, _ run: StoreWriteRun) throws(End) {
            guard toValidate.push(chunk) else { throw .store(.closed(store: store.path)) }
            inFlight += 1
            while inFlight >= Self.chunksInFlight { try finishInFlight(run, all: false) }
            // Those already validated are stored now, not when the next input comes.
            while let done = validated.tryPop() { try finish(done, run) }
        }

        func newChunk(file: Int) -> IngestChunk {
            let chunk = spare.popLast() ?? IngestChunk(linesTarget: options.chunkLines)
            chunk.reset(file: file)
            return chunk
        }

        /// Stores the events of a `.navlog` input, in order; damage other
        /// than a torn tail is rejected as the line after the last event read.
        func readLog(_ run: StoreWriteRun, _ index: Int) throws(End) {
            let path = run.paths[index]
            let log: LogReader
            do { log = try LogReader(path: path) } catch { throw .read(error) }
            var number = 0
            var failure: End?
            do {
                try log.forEachContent { content in
                    guard failure == nil else { return }
                    do throws(End) {
                        number = try NDJSONLineReader.forEachLine(in: content, after: number) { (number, text, _) throws(End) in
                            run.readBytes(text.count)
                            run.countRead()
                            try storeLine(IngestValidator.verdict(text, &parser, &canonical), text, file: index, line: number, overLimit: false, run)
                        }
                    } catch { failure = error }
                }
            } catch { throw .read(error) }
            if let failure { throw failure }
            if let damage = log.damage, !damage.isTornTail {
                number += 1
                run.countRead()
                run.reject(.store(.corrupt(segment: path, offset: damage.offset, reason: damage.reason)), file: index, line: number, bytes: nil)
            }
            run.lastLine = number
        }

        /// Reads input `index`: a `.navlog` log, or NDJSON.
        func read(_ run: StoreWriteRun, _ index: Int) throws(End) {
            if InputKind.of(run.paths[index]).isLog {
                try finishInFlight(run)
                return try readLog(run, index)
            }
            let reader: NDJSONLineReader
            do { reader = try run.lines(index) } catch {
                try finishInFlight(run)
                throw error
            }
            var chunk = newChunk(file: index)
            do {
                // A pipe whose input pauses: what was read is stored and committed
                // once the commit interval has passed, without waiting for a full chunk.
                try run.forEachLine(reader, paused: { () throws(End) in
                    if !chunk.lines.isEmpty {
                        try handOut(chunk, run)
                        chunk = newChunk(file: index)
                    }
                    try finishInFlight(run)
                }) { (line) throws(End) in
                    run.readBytes(line.overLimitBytes ?? line.bytes.count)
                    run.countRead()
                    chunk.add(line)
                    run.lastLine = line.number
                    if chunk.isFull {
                        try handOut(chunk, run)
                        chunk = newChunk(file: index)
                        if run.askStop() { throw .stopped }
                    }
                }
            } catch {
                if case .store = error { throw error }
                // Stopped, or the input failed: the lines read before are still stored.
                if !chunk.lines.isEmpty { try handOut(chunk, run) }
                if case .read = error { try finishInFlight(run) }
                throw error
            }
            if !chunk.lines.isEmpty { try handOut(chunk, run) }
        }

        let (report, failure) = try StoreWriteRun.run(
            store: store, options: options, counting: .lines, paths: paths, onReject: onReject, onProgress: onProgress,
            shouldStop: shouldStop, readInput: read, afterInputs: { run throws(End) in try finishInFlight(run) })
        lastReport = report
        switch failure {
        case .store(let e): throw e
        case .read(let e): throw .io(e)
        case nil, .stopped, .header: return report  // an ingest reads no CSV header
        }
    }

    /// Chunks handed out and not yet stored.
    static let chunksInFlight = 4
}
