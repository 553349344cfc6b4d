import NavLogCore

/// Reads foreign navigation data into a segment store through an
/// ``ImportConverter`` (NDJSON formats) or a ``CSVEventConverter``. Every
/// non-blank input record is stored (all its events) or rejected with its
/// line and reason.
///
/// ```swift
/// let importer = StoreImporter(store: try SegmentStore.create(at: "events"))
/// var ga4 = GA4Converter()
/// let report = try importer.importLines(paths: ["events.json"], converter: &ga4) { rejection in
///     print(rejection)             // file:line: reason
/// }
/// ```
///
/// Storing is `navlog ingest`'s (``StoreSink``): one writer, a session's
/// events numbered after its last stored seq, on the calling thread.
/// Memory is bounded: input streams through ``NDJSONLineReader`` (records
/// over 1 MiB are rejected, not kept), the converter keeps only open
/// sessions, the writer only the sessions under way; what grows is the id
/// of each session seen, to count them, as in ingest.
public final class StoreImporter {
    /// What an import did (counting records).
    public typealias Report = StoreWriteReport

    /// A record that was not stored (as `navlog ingest` reports a line).
    public typealias Rejection = StoreIngester.Rejection
    /// How far the input has been read (`linesRead` counts records).
    public typealias Progress = StoreIngester.Progress

    /// Trouble that stops an import (what was stored before stays stored).
    public enum Failure: Error, CustomStringConvertible {
        /// An input could not be read.
        case log(LogError)
        /// The store could not be read or written.
        case store(SegmentStoreError)
        /// A CSV header lacks a named column.
        case header(file: String, reason: String)

        public var description: String {
            switch self {
            case .log(let e): e.description
            case .store(let e): e.description
            case .header(let file, let reason): "\(file == "-" ? "<stdin>" : file):1: \(reason)"
            }
        }
    }

    /// The store written to, opened for writing (its lock held); the lock
    /// is released when the import ends.
    public let store: SegmentStore
    /// How the store is written (as for ingest): `commitInterval` is the
    /// most time between commits while records come in.
    public let options: StoreIngester.Options
    /// Asked between records (every 1,024) and between inputs: `true` ends
    /// the import there, what was read stored or rejected
    /// (``Report/stoppedAfter``), as Ctrl-C ends an ingest.
    public let shouldStop: () -> Bool

    public init(store: SegmentStore, options: StoreIngester.Options = StoreIngester.Options(), shouldStop: @escaping () -> Bool = { false }) {
        self.store = store
        self.options = options
        self.shouldStop = shouldStop
    }

    /// The writing side of one import.
    private func sink() throws(Failure) -> StoreSink {
        do { return StoreSink(writer: try SegmentWriter(store: store, options: options.writerOptions)) } catch {
            throw .store(error)
        }
    }

    /// Closes the writer (the last commit synced: what was stored before a
    /// failure stays stored) and adds its counts to the report; then
    /// throws `failure`, or the writer's own.
    private func finish(_ sink: StoreSink, _ report: inout Report, failure: Failure?) throws(Failure) {
        report.stored = sink.stored
        report.duplicates = sink.duplicates
        report.sessions = sink.sessionsStored
        report.newSessions = sink.newSessions
        var closing: Failure?
        do { try sink.writer.close() } catch { closing = .store(error) }
        report.projectionBehind = sink.writer.projectionBehind
        if let failure = failure ?? closing { throw failure }
    }

    /// Between records, every 256 (an import's chunk): a commit when
    /// `commitInterval` has passed since the last one, as ingest commits;
    /// every 1,024, the question whether to stop.
    private struct Pace {
        let interval: Int?
        let shouldStop: () -> Bool
        var lastCommit = LogFile.monotonicMilliseconds()
        var records = 0

        /// After one record; `true` when the import is to stop after it.
        mutating func next(_ sink: StoreSink) throws(SegmentStoreError) -> Bool {
            records += 1
            guard records & 0xFF == 0 else { return false }
            if let interval, LogFile.monotonicMilliseconds() - lastCommit >= Int64(interval) {
                try sink.writer.commit()
                lastCommit = LogFile.monotonicMilliseconds()
            }
            return records & 0x3FF == 0 && shouldStop()
        }

        /// How long a read of a pipe may wait before ``paused(_:)``: until the next commit is due.
        func wait() -> Int? {
            interval.map { Int(max(0, lastCommit + Int64($0) - LogFile.monotonicMilliseconds())) }
        }

        /// The input paused (a pipe with nothing to read): what was stored is committed.
        mutating func paused(_ sink: StoreSink) throws(LoopEnd) {
            do throws(SegmentStoreError) { try sink.writer.commit() } catch { throw .failed(error) }
            lastCommit = LogFile.monotonicMilliseconds()
        }
    }

    /// Why a read loop ended early.
    private enum LoopEnd: Error {
        case failed(SegmentStoreError)
        case stopped
    }

    /// The end of reading one input.
    private static func readFailure(_ error: NDJSONFailure<LoopEnd>) -> Failure? {
        switch error {
        case .read(let e): .log(LogError(reading: e))
        case .body(.failed(let e)): .store(e)
        case .body(.stopped): nil
        }
    }

    /// Imports NDJSON inputs (`-` is standard input), one record a line,
    /// then closes the logs. `onReject` gets each rejection with the record's
    /// bytes (`nil` for one over the length limit); `onProgress` runs every
    /// 16,384 records and at the end. Both run on the caller's thread.
    public func importLines<C: ImportConverter>(
        paths: [String], converter: inout C,
        onReject: (Rejection) -> Void,
        onProgress: (Progress) -> Void = { _ in }
    ) throws(Failure) -> Report {
        var report = Report(counting: .records)
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        var events: [Event] = []
        let sink = try sink()
        var pace = Pace(interval: options.commitInterval, shouldStop: shouldStop)
        var failure: Failure?
        reading: for (index, path) in paths.enumerated() {
            let reader: NDJSONLineReader
            do { reader = try NDJSONLineReader(path: path) } catch {
                failure = .log(LogError(reading: error))
                break reading
            }
            var lastLine = 0
            do throws(NDJSONFailure<LoopEnd>) {
                try reader.forEachLine(wait: { pace.wait() }, paused: { () throws(LoopEnd) in try pace.paused(sink) },
                                       stopIfAsked: { () throws(LoopEnd) in if shouldStop() { throw .stopped } }) { (line) throws(LoopEnd) in
                    progress.bytesRead += Int64((line.overLimitBytes ?? line.bytes.count) + 1)
                    if line.isBlank { return }
                    report.read += 1
                    lastLine = line.number
                    progress.linesRead += 1
                    if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
                    func reject(_ reason: Refusal, _ bytes: [UInt8]?) {
                        report.rejected += 1
                        progress.rejected += 1
                        onReject(Rejection(file: path, line: line.number, refusal: reason, bytes: bytes))
                    }
                    func store() throws(SegmentStoreError) {
                        if let length = line.overLimitBytes {
                            return reject(.line(.lineTooLong(bytes: length, limit: EventParser.maxLineBytes)), nil)
                        }
                        events.removeAll(keepingCapacity: true)
                        do throws(EventParseError) {
                            try converter.convert(line.bytes, record: line.number, into: &events)
                        } catch {
                            return reject(.line(error), Array(line.bytes))
                        }
                        if let why = try sink.store(record: events) { reject(why, Array(line.bytes)) }
                    }
                    let stop: Bool
                    do throws(SegmentStoreError) {
                        try store()
                        stop = try pace.next(sink)
                    } catch { throw .failed(error) }
                    if stop { throw .stopped }
                }
            } catch {
                failure = Self.readFailure(error)
                if failure == nil { report.stoppedAfter = (path, lastLine) }
                break reading
            }
            if index < paths.count - 1, shouldStop() {
                report.stoppedAfter = (path, lastLine)
                break reading
            }
        }
        events.removeAll()
        converter.finish(into: &events)   // owes nothing for today's formats
        try finish(sink, &report, failure: failure)
        onProgress(progress)
        return report
    }

    /// Imports CSV inputs (each with its own header line); `onHeader` gets
    /// the first header's bytes, `onReject` each rejected record with its
    /// bytes as read (`nil` when over the limit).
    public func importCSV(
        paths: [String], converter: CSVEventConverter,
        onHeader: ([UInt8]) -> Void = { _ in },
        onReject: (Rejection) -> Void,
        onProgress: (Progress) -> Void = { _ in }
    ) throws(Failure) -> Report {
        var report = Report(counting: .records)
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        let newline = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        newline[0] = 0x0A
        defer { newline.deallocate() }
        let sink = try sink()
        var pace = Pace(interval: options.commitInterval, shouldStop: shouldStop)
        var failure: Failure?
        reading: for (index, path) in paths.enumerated() {
            var converter = converter
            var csv = CSVReader()
            var raw: [UInt8] = []
            var rawOverLimit = false
            let reader: NDJSONLineReader
            do { reader = try NDJSONLineReader(path: path) } catch {
                failure = .log(LogError(reading: error))
                break reading
            }
            var headerFailure: Failure?
            // The last line of the last record read, and whether to stop once between records.
            var lastLine = 0
            var stopAsked = false
            func handle(_ record: CSVReader.Record) throws(SegmentStoreError) {
                let bytes = rawOverLimit ? nil : raw
                raw.removeAll(keepingCapacity: true)
                rawOverLimit = false
                guard converter.hasHeader else {
                    if let error = record.error { headerFailure = .header(file: path, reason: "header: \(error)"); return }
                    do { try converter.readHeader(record.fields) } catch {
                        headerFailure = .header(file: path, reason: error.description)
                        return
                    }
                    onHeader(bytes ?? [])
                    return
                }
                report.read += 1
                progress.linesRead += 1
                if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
                func reject(_ reason: Refusal) {
                    report.rejected += 1
                    progress.rejected += 1
                    onReject(Rejection(file: path, line: record.line, refusal: reason, bytes: bytes))
                }
                func store() throws(SegmentStoreError) {
                    if let error = record.error { return reject(.line(error)) }
                    let event: Event
                    do { event = try converter.convert(record.fields) } catch { return reject(.line(error)) }
                    if let why = try sink.store(event: event) { reject(why) }
                }
                try store()
                if try pace.next(sink) { stopAsked = true }
            }
            do throws(NDJSONFailure<LoopEnd>) {
                // A stop asked while the writer is quiet ends the import between
                // records only: a record whose lines are partly read is finished first.
                func stopIfAsked() throws(LoopEnd) {
                    guard shouldStop() else { return }
                    if csv.isBetweenRecords { throw .stopped }
                    stopAsked = true
                }
                try reader.forEachLine(wait: { pace.wait() }, paused: { () throws(LoopEnd) in try pace.paused(sink) },
                                       stopIfAsked: stopIfAsked) { (line) throws(LoopEnd) in
                    guard headerFailure == nil else { return }
                    progress.bytesRead += Int64((line.overLimitBytes ?? line.bytes.count) + 1)
                    if let length = line.overLimitBytes {
                        csv.skipLine(ofLength: length)
                        rawOverLimit = true
                    } else {
                        if raw.count + line.bytes.count < EventParser.maxLineBytes {
                            raw.append(contentsOf: line.bytes)
                            raw.append(0x0A)
                        } else {
                            rawOverLimit = true
                        }
                        do throws(SegmentStoreError) { try csv.feed(line.bytes) { (r) throws(SegmentStoreError) in try handle(r) } } catch {
                            throw .failed(error)
                        }
                    }
                    do throws(SegmentStoreError) { try csv.feed(UnsafeRawBufferPointer(newline)) { (r) throws(SegmentStoreError) in try handle(r) } } catch {
                        throw .failed(error)
                    }
                    if csv.isBetweenRecords {
                        raw.removeAll(keepingCapacity: true)
                        rawOverLimit = false
                        lastLine = line.number
                        if stopAsked { throw .stopped }
                    }
                }
            } catch {
                failure = Self.readFailure(error)
                if failure == nil { report.stoppedAfter = (path, lastLine) }
                break reading
            }
            if headerFailure == nil {
                do { try csv.finish { (r) throws(SegmentStoreError) in try handle(r) } } catch {
                    failure = .store(error)
                    break reading
                }
            }
            if let headerFailure {
                failure = headerFailure
                break reading
            }
            if index < paths.count - 1, shouldStop() {
                report.stoppedAfter = (path, lastLine)
                break reading
            }
        }
        try finish(sink, &report, failure: failure)
        onProgress(progress)
        return report
    }

    /// Imports inputs that each hold one document (up to 1 MiB, any line
    /// breaks): `convert` turns a document's bytes into events of one
    /// session, or says why not (reported as line 1). `expected` names what
    /// a document is, for the rejection of one over the limit.
    public func importDocuments(
        paths: [String], expected: String, convert: (String, UnsafeRawBufferPointer) throws(EventParseError) -> [Event],
        onReject: (Rejection) -> Void
    ) throws(Failure) -> Report {
        var report = Report(counting: .records)
        let sink = try sink()
        var failure: Failure?
        reading: for (index, path) in paths.enumerated() {
            // One document a file: asked between files.
            if index > 0, shouldStop() {
                report.stoppedAfter = (paths[index - 1], 1)
                break reading
            }
            let reader: NDJSONLineReader
            do { reader = try NDJSONLineReader(path: path) } catch {
                failure = .log(LogError(reading: error))
                break reading
            }
            var document: [UInt8] = []
            var length = 0
            do throws(NDJSONFailure<Never>) {
                try reader.forEachLine { line in
                    length += (line.overLimitBytes ?? line.bytes.count) + 1
                    if length <= EventParser.maxLineBytes, line.overLimitBytes == nil {
                        document.append(contentsOf: line.bytes)
                        document.append(0x0A)
                    }
                }
            } catch {
                if case .read(let e) = error { failure = .log(LogError(reading: e)) }
                break reading
            }
            report.read += 1
            func reject(_ reason: Refusal, _ bytes: [UInt8]?) {
                report.rejected += 1
                onReject(Rejection(file: path, line: 1, refusal: reason, bytes: bytes))
            }
            if length > EventParser.maxLineBytes {
                reject(.line(.notADocument(expected: expected,
                                     reason: "\(length) bytes, over the limit of \(EventParser.maxLineBytes) for one file")), nil)
                continue
            }
            let events: [Event]
            do {
                events = try document.withUnsafeBytes { buf in
                    Result { () throws(EventParseError) in try convert(path, buf) }
                }.get()
            } catch {
                reject(.line(error), document)
                continue
            }
            do {
                if let why = try sink.store(record: events) { reject(why, document) }
            } catch {
                failure = .store(error)
                break reading
            }
        }
        try finish(sink, &report, failure: failure)
        return report
    }
}
