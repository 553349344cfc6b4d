/// An incremental RFC 4180 reader: bytes in, records out, in bounded memory.
///
/// ```swift
/// var reader = CSVReader()
/// try reader.feed(chunk) { record in print(record.line, record.fields) }
/// try reader.finish { record in … }
/// ```
///
/// Fields are separated by `,`, records end in CRLF or LF; a field in double
/// quotes may hold commas, quotes (doubled: `""`) and line breaks. A line with
/// nothing on it is skipped. A record is handed out with the 1-based line it
/// starts on, either with its fields or with why it is malformed: a quote
/// inside an unquoted field, text after a closing quote, a quote left open at
/// the end of input, invalid UTF-8, or more than ``maxRecordBytes`` bytes (the
/// rest of such a record is read past, not kept).
public struct CSVReader {
    /// One record: where it starts and its fields, or why it is malformed.
    public struct Record: Sendable {
        /// 1-based line number of the record's first byte.
        public var line: Int
        /// The fields, as text.
        public var fields: [String]
        /// Why the record is malformed (``fields`` is then empty).
        public var error: EventParseError?
    }

    /// The largest record accepted, in bytes.
    public let maxRecordBytes: Int

    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }
    private var state = State.fieldStart
    private var pendingCR = false
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var recordBytes = 0
    private var recordLine = 1
    private var line = 1
    private var error: EventParseError?
    private var recordHasContent = false

    public init(maxRecordBytes: Int = EventParser.maxLineBytes) {
        self.maxRecordBytes = maxRecordBytes
    }

    /// Reads a chunk of input, handing out each record it completes.
    public mutating func feed<E: Error>(_ bytes: UnsafeRawBufferPointer, _ body: (Record) throws(E) -> Void) throws(E) {
        for b in bytes {
            if pendingCR {
                pendingCR = false
                if b == 0x0A {
                    try endRecord(body)
                    line += 1
                    continue
                }
                take(0x0D, escapedCR: true)
            }
            try take(b, body)
        }
    }

    /// Ends the input: hands out the last record if it has no line break.
    public mutating func finish<E: Error>(_ body: (Record) throws(E) -> Void) throws(E) {
        pendingCR = false
        if state == .quoted, error == nil { fail(.invalidValue(field: "(record)", reason: "quoted field not closed before the end of input")) }
        if recordHasContent || !fields.isEmpty || !field.isEmpty || error != nil { try endRecord(body) }
    }

    /// Whether the input so far ends exactly at a record boundary.
    public var isBetweenRecords: Bool { !recordHasContent && !pendingCR && error == nil && fields.isEmpty }

    /// Stands for one line of input that was too long to keep (a line reader
    /// passed over it): the record it belongs to is malformed, and is taken
    /// to end with that line. Feed the line's `\n` afterwards as usual.
    public mutating func skipLine(ofLength length: Int) {
        recordHasContent = true
        pendingCR = false
        recordBytes += length
        fail(.lineTooLong(bytes: length, limit: maxRecordBytes))
        state = .unquoted
    }

    @inline(__always)
    private mutating func take<E: Error>(_ b: UInt8, _ body: (Record) throws(E) -> Void) throws(E) {
        if b == 0x0A && state != .quoted {
            try endRecord(body)
            line += 1
            return
        }
        if b == 0x0D && state != .quoted {
            pendingCR = true
            return
        }
        take(b, escapedCR: false)
    }

    /// Takes one byte that does not end the record.
    private mutating func take(_ b: UInt8, escapedCR: Bool) {
        recordHasContent = true
        if b == 0x0A { line += 1 }
        recordBytes += 1
        if recordBytes > maxRecordBytes, error == nil {
            fail(.lineTooLong(bytes: recordBytes, limit: maxRecordBytes))
        }
        if error != nil {
            // Reading past a bad record: follow the grammar only to find its
            // end, taking stray quotes literally (a quote opens a quoted
            // field only at the start of a field).
            switch state {
            case .fieldStart: state = b == 0x22 ? .quoted : (b == 0x2C ? .fieldStart : .unquoted)
            case .unquoted: if b == 0x2C { state = .fieldStart }
            case .quoted: if b == 0x22 { state = .quoteInQuoted }
            case .quoteInQuoted: state = b == 0x22 ? .quoted : (b == 0x2C ? .fieldStart : .unquoted)
            }
            return
        }
        switch state {
        case .fieldStart:
            if b == 0x22 { state = .quoted }
            else if b == 0x2C { endField() }
            else { field.append(b); state = .unquoted }
        case .unquoted:
            if b == 0x2C { endField() }
            else if b == 0x22 { fail(.invalidValue(field: "field \(fields.count + 1)", reason: "quote inside an unquoted field")) }
            else { field.append(b) }
        case .quoted:
            if b == 0x22 { state = .quoteInQuoted } else { field.append(b) }
        case .quoteInQuoted:
            if b == 0x22 { field.append(b); state = .quoted }
            else if b == 0x2C { endField() }
            else { fail(.invalidValue(field: "field \(fields.count + 1)", reason: "text after a closing quote")) }
        }
    }

    private mutating func fail(_ reason: EventParseError) {
        error = reason
        field.removeAll()
        fields.removeAll()
    }

    private mutating func endField() {
        if error == nil {
            if let text = Self.validUTF8(field) {
                fields.append(text)
            } else {
                fail(.invalidValue(field: "field \(fields.count + 1)", reason: "invalid UTF-8"))
            }
        }
        field.removeAll(keepingCapacity: true)
        state = .fieldStart
    }

    private mutating func endRecord<E: Error>(_ body: (Record) throws(E) -> Void) throws(E) {
        defer {
            fields.removeAll(keepingCapacity: true)
            field.removeAll(keepingCapacity: true)
            state = .fieldStart
            error = nil
            recordBytes = 0
            recordHasContent = false
            recordLine = line + 1
        }
        guard recordHasContent || error != nil else { return }   // a blank line
        endField()
        if let error {
            try body(Record(line: recordLine, fields: [], error: error))
        } else {
            try body(Record(line: recordLine, fields: fields, error: nil))
        }
    }

    /// The text of `bytes` when they are valid UTF-8.
    static func validUTF8(_ bytes: [UInt8]) -> String? {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            case .error: return nil
            }
        }
    }
}
