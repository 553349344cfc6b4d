import NavLogCore

/// Reads foreign navigation data into a ``Store`` through an
/// ``ImportConverter`` (NDJSON formats) or a ``CSVEventConverter``: one log
/// per session, appended to when it exists. Every non-blank input record is
/// stored (all its events) or rejected with its line and reason.
///
/// ```swift
/// let importer = StoreImporter(store: try Store(directory: "logs", create: true))
/// var ga4 = GA4Converter()
/// let report = try importer.importLines(paths: ["events.json"], converter: &ga4) { rejection in
///     print(rejection)             // file:line: reason
/// }
/// ```
///
/// Storing is `navlog ingest`'s: the same routing of sessions to logs (an
/// existing log is continued), numbering, and writer threads. Memory is
/// bounded: input streams through ``NDJSONLineReader`` (records over 1 MiB
/// are rejected, not kept), the converter keeps only open sessions, events
/// wait in a bounded queue, at most `maxOpenWriters` logs are open; what
/// grows is a route (log path, last seq) per session seen, as in ingest.
public final class StoreImporter {
    /// What an import did.
    public struct Report: Sendable {
        /// Records read (blank lines and CSV headers not counted).
        public var records = 0
        /// Events stored.
        public var stored = 0
        /// Records rejected.
        public var rejected = 0
        /// Sessions that got events.
        public var sessions = 0
        /// Of those, sessions whose log did not exist before.
        public var newLogs = 0
    }

    /// A record that was not stored (as `navlog ingest` reports a line).
    public typealias Rejection = StoreIngester.Rejection
    /// How far the input has been read (`linesRead` counts records).
    public typealias Progress = StoreIngester.Progress

    /// Trouble that stops an import (what was stored before stays stored).
    public enum Failure: Error, CustomStringConvertible {
        /// An input could not be read, or a log not opened or written.
        case log(LogError)
        /// A CSV header lacks a named column.
        case header(file: String, reason: String)

        public var description: String {
            switch self {
            case .log(let e): e.description
            case .header(let file, let reason): "\(file == "-" ? "<stdin>" : file):1: \(reason)"
            }
        }
    }

    /// The store written to.
    public let store: Store
    /// How logs are written (as for ingest; `batchEvents` and the queues too).
    public let options: StoreIngester.Options

    public init(store: Store, options: StoreIngester.Options = StoreIngester.Options()) {
        self.store = store
        self.options = options
    }

    /// Waits for the writers and adds their results to the report.
    private func finish(_ writing: ImportWriting, _ report: inout Report, onReject: (Rejection) -> Void) throws(Failure) {
        let (stored, rejections, failure) = writing.finish()
        report.stored = stored
        report.sessions = writing.sessions
        report.newLogs = writing.newLogs
        for rejection in rejections {
            report.rejected += 1
            onReject(rejection)
        }
        if let failure { throw .log(failure) }
    }

    /// The end of reading one input: read errors are trouble; a stopped
    /// writer thread (`.closed`) ends the reading, its own error is reported.
    private static func readFailure(_ error: NDJSONFailure<LogError>, path: String) -> Failure? {
        switch error {
        case .read(let e): return .log(LogError(reading: e))
        case .body(let e):
            if case .closed = e.kind { return nil }
            return .log(e)
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
        var report = Report()
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        var events: [Event] = []
        let writing = ImportWriting(store: store, options: options, files: paths)
        var failure: Failure?
        reading: for (fileIndex, path) in paths.enumerated() {
            let reader: NDJSONLineReader
            do { reader = try NDJSONLineReader(path: path) } catch {
                failure = .log(LogError(reading: error))
                break reading
            }
            do throws(NDJSONFailure<LogError>) {
                try reader.forEachLine { (line) throws(LogError) in
                    progress.bytesRead += Int64((line.overLimitBytes ?? line.bytes.count) + 1)
                    if line.isBlank { return }
                    report.records += 1
                    progress.linesRead += 1
                    if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
                    func reject(_ reason: EventParseError, _ bytes: [UInt8]?) {
                        report.rejected += 1
                        progress.rejected += 1
                        onReject(Rejection(file: path, line: line.number, refusal: .line(reason), bytes: bytes))
                    }
                    if let length = line.overLimitBytes {
                        return reject(.lineTooLong(bytes: length, limit: EventParser.maxLineBytes), nil)
                    }
                    events.removeAll(keepingCapacity: true)
                    do throws(EventParseError) {
                        try converter.convert(line.bytes, record: line.number, into: &events)
                    } catch {
                        return reject(error, Array(line.bytes))
                    }
                    if let why = try writing.add(events, file: fileIndex, line: line.number, recordBytes: line.bytes.count) {
                        reject(why, Array(line.bytes))
                    }
                }
            } catch {
                failure = Self.readFailure(error, path: path)
                break reading
            }
        }
        events.removeAll()
        converter.finish(into: &events)   // owes nothing for today's formats
        try finish(writing, &report, onReject: onReject)
        if let failure { throw failure }
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
        var report = Report()
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        let newline = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
        newline[0] = 0x0A
        defer { newline.deallocate() }
        let writing = ImportWriting(store: store, options: options, files: paths)
        var failure: Failure?
        reading: for (fileIndex, path) in paths.enumerated() {
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
            func handle(_ record: CSVReader.Record) throws(LogError) {
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
                report.records += 1
                progress.linesRead += 1
                if progress.linesRead & 0x3FFF == 0 { onProgress(progress) }
                func reject(_ reason: EventParseError) {
                    report.rejected += 1
                    progress.rejected += 1
                    onReject(Rejection(file: path, line: record.line, refusal: .line(reason), bytes: bytes))
                }
                if let error = record.error { return reject(error) }
                let event: Event
                do { event = try converter.convert(record.fields) } catch { return reject(error) }
                if let why = try writing.add([event], file: fileIndex, line: record.line, recordBytes: bytes?.count ?? EventParser.maxLineBytes) {
                    reject(why)
                }
            }
            do throws(NDJSONFailure<LogError>) {
                try reader.forEachLine { (line) throws(LogError) in
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
                        try csv.feed(line.bytes) { (r) throws(LogError) in try handle(r) }
                    }
                    try csv.feed(UnsafeRawBufferPointer(newline)) { (r) throws(LogError) in try handle(r) }
                    if csv.isBetweenRecords { raw.removeAll(keepingCapacity: true); rawOverLimit = false }
                }
            } catch {
                failure = Self.readFailure(error, path: path)
                break reading
            }
            if headerFailure == nil {
                do { try csv.finish { (r) throws(LogError) in try handle(r) } } catch {
                    failure = Self.readFailure(.body(error), path: path)
                    break reading
                }
            }
            if let headerFailure {
                failure = headerFailure
                break reading
            }
        }
        try finish(writing, &report, onReject: onReject)
        if let failure { throw failure }
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
        var report = Report()
        let writing = ImportWriting(store: store, options: options, files: paths)
        var failure: Failure?
        reading: for (fileIndex, path) in paths.enumerated() {
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
            report.records += 1
            func reject(_ reason: EventParseError, _ bytes: [UInt8]?) {
                report.rejected += 1
                onReject(Rejection(file: path, line: 1, refusal: .line(reason), bytes: bytes))
            }
            if length > EventParser.maxLineBytes {
                reject(.notADocument(expected: expected,
                                     reason: "\(length) bytes, over the limit of \(EventParser.maxLineBytes) for one file"), nil)
                continue
            }
            let events: [Event]
            do {
                events = try document.withUnsafeBytes { buf in
                    Result { () throws(EventParseError) in try convert(path, buf) }
                }.get()
            } catch {
                reject(error, document)
                continue
            }
            do {
                if let why = try writing.add(events, file: fileIndex, line: 1, recordBytes: document.count) { reject(why, document) }
            } catch {
                if case .closed = error.kind { break reading }
                failure = .log(error)
                break reading
            }
        }
        try finish(writing, &report, onReject: onReject)
        if let failure { throw failure }
        return report
    }
}
