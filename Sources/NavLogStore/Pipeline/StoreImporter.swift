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
/// Storing is `navlog ingest`'s (``StoreWriteRun``, ``StoreSink``): one
/// writer, a session's events numbered after its last stored seq, on the
/// calling thread.
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
        case log(FileError)
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

    /// Runs the write pipeline over `paths`, each input read by `readInput`.
    private func run(paths: [String], onReject: (Rejection) -> Void, onProgress: (Progress) -> Void,
                     readInput: (StoreWriteRun, Int) throws(StoreWriteRun.End) -> Void) throws(Failure) -> Report {
        let ended: (report: Report, failure: StoreWriteRun.End?)
        do {
            ended = try StoreWriteRun.run(store: store, options: options, counting: .records, paths: paths, onReject: onReject,
                                          onProgress: onProgress, shouldStop: shouldStop, readInput: readInput)
        } catch { throw .store(error) }
        switch ended.failure {
        case nil, .stopped: return ended.report
        case .store(let e): throw .store(e)
        case .read(let e): throw .log(e)
        case .header(let file, let reason): throw .header(file: file, reason: reason)
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
        var events: [Event] = []
        let report = try run(paths: paths, onReject: onReject, onProgress: onProgress) { (run, index) throws(StoreWriteRun.End) in
            try run.forEachLine(try run.lines(index)) { (line) throws(StoreWriteRun.End) in
                run.readBytes(line.overLimitBytes ?? line.bytes.count)
                run.lastLine = line.number
                if line.isBlank { return }
                run.countRead()
                if let length = line.overLimitBytes {
                    run.reject(.line(.lineTooLong(bytes: length, limit: EventParser.maxLineBytes)), file: index, line: line.number, bytes: nil)
                } else {
                    events.removeAll(keepingCapacity: true)
                    func store() throws(StoreWriteRun.End) -> Refusal? {
                        do { try converter.convert(line.bytes, record: line.number, into: &events) } catch { return .line(error) }
                        return try run.storing { () throws(SegmentStoreError) in try run.sink.store(record: events) }
                    }
                    if let refusal = try store() { run.reject(refusal, file: index, line: line.number, bytes: Array(line.bytes)) }
                }
                if try run.recordDone() { throw .stopped }
            }
        }
        events.removeAll()
        converter.finish(into: &events)   // owes nothing for today's formats
        return report
    }

    /// Imports CSV inputs (each with its own header line); `onHeader` gets
    /// the first header's bytes, `onReject` each rejected record with its
    /// bytes as read (`nil` when over the limit). A stop is taken between
    /// records only: a record whose lines are partly read is finished first.
    public func importCSV(
        paths: [String], converter: CSVEventConverter,
        onHeader: ([UInt8]) -> Void = { _ in },
        onReject: (Rejection) -> Void,
        onProgress: (Progress) -> Void = { _ in }
    ) throws(Failure) -> Report {
        let newline = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        newline[0] = 0x0A
        defer { newline.deallocate() }
        return try run(paths: paths, onReject: onReject, onProgress: onProgress) { (run, index) throws(StoreWriteRun.End) in
            var converter = converter
            var csv = CSVReader()
            // The record's lines as read, for --rejects (unless over the limit).
            var raw: [UInt8] = []
            var rawOverLimit = false
            func handle(_ record: CSVReader.Record) throws(StoreWriteRun.End) {
                let bytes = rawOverLimit ? nil : raw
                raw.removeAll(keepingCapacity: true)
                rawOverLimit = false
                guard converter.hasHeader else {
                    if let error = record.error { throw .header(file: run.paths[index], reason: "header: \(error)") }
                    do { try converter.readHeader(record.fields) } catch {
                        throw .header(file: run.paths[index], reason: error.description)
                    }
                    return onHeader(bytes ?? [])
                }
                run.countRead()
                func store() throws(StoreWriteRun.End) -> Refusal? {
                    if let error = record.error { return .line(error) }
                    let event: Event
                    do { event = try converter.convert(record.fields) } catch { return .line(error) }
                    return try run.storing { () throws(SegmentStoreError) in try run.sink.store(event: event) }
                }
                if let refusal = try store() { run.reject(refusal, file: index, line: record.line, bytes: bytes) }
                _ = try run.recordDone()  // a stop asked is taken between records
            }
            try run.forEachLine(try run.lines(index), atBoundary: { csv.isBetweenRecords }) { (line) throws(StoreWriteRun.End) in
                run.readBytes(line.overLimitBytes ?? line.bytes.count)
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
                    try csv.feed(line.bytes, handle)
                }
                try csv.feed(UnsafeRawBufferPointer(newline), handle)
                if csv.isBetweenRecords {
                    raw.removeAll(keepingCapacity: true)
                    rawOverLimit = false
                    run.lastLine = line.number
                    if run.stopAsked { throw .stopped }
                }
            }
            try csv.finish(handle)
        }
    }

    /// Imports inputs that each hold one document (up to 1 MiB, any line
    /// breaks): `convert` turns a document's bytes into events of one
    /// session, or says why not (reported as line 1). `expected` names what
    /// a document is, for the rejection of one over the limit.
    public func importDocuments(
        paths: [String], expected: String, convert: (String, UnsafeRawBufferPointer) throws(EventParseError) -> [Event],
        onReject: (Rejection) -> Void
    ) throws(Failure) -> Report {
        try run(paths: paths, onReject: onReject, onProgress: { _ in }) { (run, index) throws(StoreWriteRun.End) in
            var document: [UInt8] = []
            var length = 0
            try run.forEachLine(try run.lines(index)) { line in
                length += (line.overLimitBytes ?? line.bytes.count) + 1
                if length <= EventParser.maxLineBytes, line.overLimitBytes == nil {
                    document.append(contentsOf: line.bytes)
                    document.append(0x0A)
                }
            }
            run.countRead()
            run.lastLine = 1
            guard length <= EventParser.maxLineBytes else {
                return run.reject(.line(.notADocument(expected: expected, reason: "\(length) bytes, over the limit of \(EventParser.maxLineBytes) for one file")),
                                  file: index, line: 1, bytes: nil)
            }
            func store() throws(StoreWriteRun.End) -> Refusal? {
                let events: [Event]
                do {
                    events = try document.withUnsafeBytes { buf in
                        Result { () throws(EventParseError) in try convert(run.paths[index], buf) }
                    }.get()
                } catch { return .line(error) }
                return try run.storing { () throws(SegmentStoreError) in try run.sink.store(record: events) }
            }
            if let refusal = try store() { run.reject(refusal, file: index, line: 1, bytes: document) }
        }
    }
}
