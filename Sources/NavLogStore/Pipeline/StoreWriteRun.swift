import NavLogCore

/// One run of the write pipeline (an ingest; an import of lines, CSV or
/// documents): the one loop over the inputs that feeds the ``StoreSink``,
/// around what turns one input's bytes into events. It counts, reports each
/// rejection (`file:line: reason`, in input order), commits on the commit
/// interval and when a pipe pauses, asks whether to stop (between inputs,
/// and through the ``NDJSONLineReader``s it opens while they wait), and
/// closes the writer and makes the report, after a failure too.
///
/// ```swift
/// let (report, failure) = try StoreWriteRun.run(store: store, options: options, counting: .records, paths: paths,
///                                               onReject: onReject, onProgress: onProgress, shouldStop: shouldStop) { run, input in
///     try run.forEachLine(try run.lines(input)) { line in … }
/// }
/// ```
final class StoreWriteRun {
    /// Why reading ended before the inputs' end: the store could not be
    /// written, an input read, a CSV header lacks a named column, or a stop
    /// was asked (what was read is stored or rejected).
    enum End: Error {
        case store(SegmentStoreError)
        case read(FileError)
        case header(file: String, reason: String)
        case stopped
    }

    /// The inputs as given (`-` for standard input).
    let paths: [String]
    let sink: StoreSink
    private(set) var report: StoreWriteReport
    private var progress = StoreIngester.Progress(bytesRead: 0, linesRead: 0, rejected: 0)
    /// The last line read of the input being read: where a stop leaves it (``StoreWriteReport/stoppedAfter``).
    var lastLine = 0
    private let commitInterval: Int?
    private var lastCommit = OpenFile.monotonicMilliseconds()
    /// Records done (``recordDone()``), for the pace of commits and stop questions.
    private var records = 0
    private let shouldStop: () -> Bool
    /// Whether a stop was asked: once asked, it stays asked.
    private(set) var stopAsked = false
    private let onReject: (StoreIngester.Rejection) -> Void
    private let onProgress: (StoreIngester.Progress) -> Void

    private init(paths: [String], sink: StoreSink, unit: StoreWriteReport.Unit, commitInterval: Int?,
                 onReject: @escaping (StoreIngester.Rejection) -> Void, onProgress: @escaping (StoreIngester.Progress) -> Void,
                 shouldStop: @escaping () -> Bool) {
        self.paths = paths
        self.sink = sink
        self.report = StoreWriteReport(counting: unit)
        self.commitInterval = commitInterval
        self.onReject = onReject
        self.onProgress = onProgress
        self.shouldStop = shouldStop
    }

    /// Reads every input in order with `readInput` (given the run and the
    /// input's index), then `afterInputs` unless reading failed; then closes
    /// the writer (the last commit synced: what was stored before a failure
    /// stays stored). `onReject` and `onProgress` (every 16,384 lines or
    /// records, and at the end) run on the calling thread.
    ///
    /// - Returns: the report, and why reading failed, if it did (a stop is no failure).
    /// - Throws: ``SegmentStoreError`` when the writer cannot be opened (nothing was read).
    static func run(
        store: SegmentStore, options: StoreIngester.Options, counting unit: StoreWriteReport.Unit, paths: [String],
        onReject: (StoreIngester.Rejection) -> Void, onProgress: (StoreIngester.Progress) -> Void, shouldStop: () -> Bool,
        readInput: (StoreWriteRun, Int) throws(End) -> Void, afterInputs: (StoreWriteRun) throws(End) -> Void = { _ in }
    ) throws(SegmentStoreError) -> (report: StoreWriteReport, failure: End?) {
        let sink = StoreSink(writer: try SegmentWriter(store: store, options: options.writerOptions))
        return withoutActuallyEscaping(onReject) { onReject in
            withoutActuallyEscaping(onProgress) { onProgress in
                withoutActuallyEscaping(shouldStop) { shouldStop in
                    let run = StoreWriteRun(paths: paths, sink: sink, unit: unit, commitInterval: options.commitInterval,
                                            onReject: onReject, onProgress: onProgress, shouldStop: shouldStop)
                    var failure = run.readAll(readInput)
                    if failure == nil {
                        do throws(End) { try afterInputs(run) } catch { failure = error }
                    }
                    return (run.finish(&failure), failure)
                }
            }
        }
    }

    /// Reads the inputs in order; returns why reading failed, if it did.
    private func readAll(_ readInput: (StoreWriteRun, Int) throws(End) -> Void) -> End? {
        for index in paths.indices {
            lastLine = 0
            do { try readInput(self, index) } catch {
                guard case .stopped = error else { return error }
                report.stoppedAfter = (paths[index], lastLine)
                return nil
            }
            // Asked between inputs too, so that a stop is not missed for lack
            // of a whole chunk; after the last input, there is nothing left to stop.
            if index < paths.count - 1, askStop() {
                report.stoppedAfter = (paths[index], lastLine)
                return nil
            }
        }
        return nil
    }

    /// Closes the writer and completes the report: what the store holds of
    /// this run (a commit that failed, and what followed it, is not counted).
    private func finish(_ failure: inout End?) -> StoreWriteReport {
        if failure == nil { onProgress(progress) }
        report.duplicates = sink.duplicates
        report.sessions = sink.sessionsStored
        report.newSessions = sink.newSessions
        do { try sink.writer.close() } catch { failure = failure ?? .store(error) }
        report.stored = sink.committed
        report.projectionBehind = sink.writer.projectionBehind
        return report
    }

    /// Opens input `index` as lines; the reader asks whether to stop while it waits.
    func lines(_ index: Int) throws(End) -> NDJSONLineReader {
        do { return try NDJSONLineReader(path: paths[index], shouldStop: { [unowned self] in askStop() }) } catch {
            throw .read(FileError(reading: error))
        }
    }

    /// Calls `body` with each line of `reader`. When a pipe's input pauses
    /// past the commit interval, `paused` runs, then a commit; a
    /// stop asked while the reader waits, at a point where `atBoundary`
    /// answers `true`, ends it with ``End/stopped``.
    func forEachLine(_ reader: NDJSONLineReader, paused: () throws(End) -> Void = {}, atBoundary: () -> Bool = { true },
                     _ body: (NDJSONLineReader.Line) throws(End) -> Void) throws(End) {
        let stopped: Bool
        do {
            stopped = try reader.forEachLine(wait: { commitDue() }, paused: { () throws(End) in
                try paused()
                try commit()
            }, atBoundary: atBoundary, body)
        } catch {
            switch error {
            case .read(let e): throw .read(FileError(reading: e))
            case .body(let e): throw e
            }
        }
        if stopped { throw .stopped }
    }

    /// Whether a stop was asked (asking `shouldStop` until it says so once).
    func askStop() -> Bool {
        if !stopAsked, shouldStop() { stopAsked = true }
        return stopAsked
    }

    /// `bytes` of input read (a line and its `\n`), for the progress.
    @inline(__always)
    func readBytes(_ bytes: Int) {
        progress.bytesRead += Int64(bytes + 1)
    }

    /// One line or record read (what the report counts).
    @inline(__always)
    func countRead() {
        report.read += 1
        progress.linesRead += 1
        if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
    }

    /// A blank line, skipped.
    func countBlank() { report.blankLines += 1 }

    /// Reports a line or record of input `file` that was not stored; `bytes`
    /// as read (`nil` when over the length limit, or not at hand).
    func reject(_ refusal: Refusal, file: Int, line: Int, bytes: [UInt8]?) {
        report.rejected += 1
        progress.rejected += 1
        onReject(StoreIngester.Rejection(file: paths[file], line: line, refusal: refusal, bytes: bytes))
    }

    /// Commits what was stored (synced).
    func commit() throws(End) {
        do { try sink.writer.commit() } catch { throw .store(error) }
        lastCommit = OpenFile.monotonicMilliseconds()
    }

    /// Milliseconds until the next commit is due (`nil`: none is, without an interval).
    private func commitDue() -> Int? {
        commitInterval.map { Int(lastCommit + Int64($0) - OpenFile.monotonicMilliseconds()) }
    }

    /// Commits when the commit interval has passed since the last commit.
    func commitIfDue() throws(End) {
        if let commitInterval, OpenFile.monotonicMilliseconds() - lastCommit >= Int64(commitInterval) { try commit() }
    }

    /// After one record of an import: every 256, a commit when one is due;
    /// every 1,024, whether to stop. Returns `true` when a stop was asked.
    func recordDone() throws(End) -> Bool {
        records += 1
        guard records & 0xFF == 0 else { return false }
        try commitIfDue()
        return records & 0x3FF == 0 && askStop()
    }

    /// Runs one of the sink's stores, its failure as the run's.
    @inline(__always)
    func storing<T>(_ body: () throws(SegmentStoreError) -> T) throws(End) -> T {
        do { return try body() } catch { throw .store(error) }
    }
}
