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
/// Memory is bounded: input streams through ``NDJSONLineReader`` (records over
/// 1 MiB are rejected, not kept), the converter keeps only open sessions, and
/// at most ``SessionWriterPool/maxOpen`` logs are open.
public final class StoreImporter {
    /// What an import did.
    public struct Report: Sendable {
        /// Records read (blank lines and CSV headers not counted).
        public var records = 0
        /// Events stored.
        public var stored = 0
        /// Records rejected.
        public var rejected = 0
        /// Logs opened for writing (a session whose log was closed to make
        /// room and came back counts again).
        public var logsOpened = 0
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

    public let writers: SessionWriterPool

    public init(store: Store, maxOpenWriters: Int = 128, writerOptions: LogWriterOptions = LogWriterOptions()) {
        writers = SessionWriterPool(store: store, maxOpen: maxOpenWriters, options: writerOptions)
    }

    /// Imports NDJSON inputs (`-` is standard input), one record a line,
    /// then closes the logs. `onReject` gets each rejection with the record's
    /// bytes (`nil` for one over the length limit); `onProgress` runs every
    /// 16,384 records and at the end. Everything runs on the caller's thread.
    public func importLines<C: ImportConverter>(
        paths: [String], converter: inout C,
        onReject: (Rejection) -> Void,
        onProgress: (Progress) -> Void = { _ in }
    ) throws(Failure) -> Report {
        var report = Report()
        var progress = Progress(bytesRead: 0, linesRead: 0, rejected: 0)
        var events: [Event] = []
        for path in paths {
            let reader: NDJSONLineReader
            do { reader = try NDJSONLineReader(path: path) } catch {
                throw .log(LogError(path: path, kind: .io(call: error.operation, errno: error.errno)))
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
                        onReject(Rejection(file: path, line: line.number, reason: reason.description, bytes: bytes))
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
                    if let why = try store(events, report: &report) { reject(why, Array(line.bytes)) }
                }
            } catch {
                switch error {
                case .read(let e): throw .log(LogError(path: path, kind: .io(call: e.operation, errno: e.errno)))
                case .body(let e): throw .log(e)
                }
            }
        }
        events.removeAll()
        converter.finish(into: &events)
        do {
            if let why = try store(events, report: &report) {
                report.rejected += 1
                onReject(Rejection(file: paths.last ?? "-", line: 0, reason: why.description, bytes: nil))
            }
            try writers.close()
        } catch { throw .log(error) }
        report.logsOpened = writers.opened
        onProgress(progress)
        return report
    }

    /// Imports CSV inputs (each with its own header line); `onReject` gets
    /// each rejected record with its bytes as read (`nil` when over the limit).
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
        for path in paths {
            var converter = converter
            var csv = CSVReader()
            var raw: [UInt8] = []
            var rawOverLimit = false
            let reader: NDJSONLineReader
            do { reader = try NDJSONLineReader(path: path) } catch {
                throw .log(LogError(path: path, kind: .io(call: error.operation, errno: error.errno)))
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
                    onReject(Rejection(file: path, line: record.line, reason: reason.description, bytes: bytes))
                }
                if let error = record.error { return reject(error) }
                let event: Event
                do { event = try converter.convert(record.fields) } catch { return reject(error) }
                if let why = try store([event], report: &report) { reject(why) }
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
                switch error {
                case .read(let e): throw .log(LogError(path: path, kind: .io(call: e.operation, errno: e.errno)))
                case .body(let e): throw .log(e)
                }
            }
            if headerFailure == nil {
                do { try csv.finish { (r) throws(LogError) in try handle(r) } } catch { throw .log(error) }
            }
            if let headerFailure {
                do { try writers.close() } catch { throw .log(error) }
                throw headerFailure
            }
        }
        do { try writers.close() } catch { throw .log(error) }
        report.logsOpened = writers.opened
        onProgress(progress)
        return report
    }

    /// Imports inputs that each hold one document (up to 1 MiB, any line
    /// breaks): `convert` turns a document's bytes into events of one
    /// session, or says why not (reported as line 1).
    public func importDocuments(
        paths: [String], convert: (String, UnsafeRawBufferPointer) throws(EventParseError) -> [Event],
        onReject: (Rejection) -> Void
    ) throws(Failure) -> Report {
        var report = Report()
        for path in paths {
            let reader: NDJSONLineReader
            do { reader = try NDJSONLineReader(path: path) } catch {
                throw .log(LogError(path: path, kind: .io(call: error.operation, errno: error.errno)))
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
                if case .read(let e) = error { throw .log(LogError(path: path, kind: .io(call: e.operation, errno: e.errno))) }
            }
            report.records += 1
            func reject(_ reason: EventParseError, _ bytes: [UInt8]?) {
                report.rejected += 1
                onReject(Rejection(file: path, line: 1, reason: reason.description, bytes: bytes))
            }
            if length > EventParser.maxLineBytes {
                reject(.lineTooLong(bytes: length, limit: EventParser.maxLineBytes), nil)
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
                if let why = try store(events, report: &report) { reject(why, document) }
            } catch { throw .log(error) }
        }
        do { try writers.close() } catch { throw .log(error) }
        report.logsOpened = writers.opened
        return report
    }

    /// Stores one record's events (all of one session), all or none.
    /// Returns why they were refused, or `nil` when stored.
    public func store(_ events: [Event], report: inout Report) throws(LogError) -> EventParseError? {
        guard let first = events.first else { return nil }
        do {
            try writers.append(events, session: first.session)
            report.stored += events.count
            return nil
        } catch {
            guard case .rejected(let why) = error.kind else { throw error }
            return .invalidValue(field: "(event)", reason: why)
        }
    }
}
