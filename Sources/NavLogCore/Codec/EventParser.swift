/// Parses one NDJSON line into an ``Event`` with full validation (docs/events.md).
///
/// ```swift
/// let event = try EventParser.parse(#"{"session":"s-1","t":"2026-11-20T10:00:00Z","type":"mark","label":"purchase"}"#)
/// ```
///
/// The line is scanned once: fields docs/events.md defines are located, then
/// decoded from their bytes once the event's `type` is known; other fields
/// are kept in ``Event/extra``. A line is either accepted whole or rejected
/// with an ``EventParseError`` that says which field and what was wrong.
/// `seq` is `0` when the line has none (a ``Sequencer`` assigns it).
///
/// - Complexity: O(n) in the line's length.
public enum EventParser {
    /// The longest line accepted, in bytes (1 MiB).
    public static let maxLineBytes = 1 << 20
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 64

    /// Parses one line given as bytes (without its newline).
    public static func parse(_ line: [UInt8]) throws(EventParseError) -> Event {
        try line.withUnsafeBytes { buf in Result { () throws(EventParseError) in try parse(buf) } }.get()
    }

    /// Parses one line given as a string (without its newline).
    public static func parse(_ line: String) throws(EventParseError) -> Event {
        var line = line
        return try line.withUTF8 { buf in
            Result { () throws(EventParseError) in try parse(UnsafeRawBufferPointer(buf)) }
        }.get()
    }

    /// Parses one line (without its newline). For many lines, reuse an
    /// ``EventLineParser``, which is faster.
    public static func parse(_ line: UnsafeRawBufferPointer) throws(EventParseError) -> Event {
        var parser = EventLineParser()
        return try parser.parse(line)
    }
}

/// A reusable line parser: the same checks as ``EventParser``, with its
/// scratch space and the last session id kept between lines (a log's lines
/// all name the same session).
public struct EventLineParser {
    let storage: LineParserStorage

    /// A parser; with `checkingCanonicalForm`, it also tells after each line
    /// whether the line was already canonical (``lastLineIsCanonical``),
    /// which costs a little more per line.
    public init(checkingCanonicalForm: Bool = false) {
        storage = LineParserStorage(checkingCanonicalForm: checkingCanonicalForm)
    }

    /// A parser that reads canonical lines through ``CanonicalLineParser``
    /// first (the default), or only ever through the general one (tests
    /// compare the two).
    package init(checkingCanonicalForm: Bool, usingFastPath: Bool) {
        storage = LineParserStorage(checkingCanonicalForm: checkingCanonicalForm)
        storage.usesFastPath = usingFastPath
    }

    /// A parser for a reader that never looks at `session.start`'s `app`
    /// and `device` nor at any event's `meta` (a funnel without `--by`,
    /// paths, screen views without marks): a canonical line's objects are
    /// checked but not built, so its event has none of them; lines the
    /// general parser reads keep theirs. Likewise `keepingRestoredJSON:
    /// false`, for a reader that follows `state.restore`'s scene but never
    /// writes its object again (funnels, paths, screen views): its event
    /// has the scene and an empty object, whichever parser reads the line.
    /// What is accepted or rejected is the same.
    package init(keepingObjects: Bool, keepingRestoredJSON: Bool = true) {
        storage = LineParserStorage(checkingCanonicalForm: false)
        storage.keepsObjects = keepingObjects
        storage.keepsRestoredJSON = keepingRestoredJSON
    }

    /// Parses one line (without its newline).
    public mutating func parse(_ line: UnsafeRawBufferPointer) throws(EventParseError) -> Event {
        try parse(line, tryingFastPath: true)
    }

    /// ``parse(_:)``, without trying the fast path first when the caller
    /// knows it would not read the line (``summarize(_:)`` made no summary
    /// of it): the answer is the same, one scan fewer.
    @inline(__always)  // else ``parse(_:)`` copies the event it returns
    package mutating func parse(_ line: UnsafeRawBufferPointer, tryingFastPath: Bool) throws(EventParseError) -> Event {
        guard line.count <= EventParser.maxLineBytes else {
            throw .lineTooLong(bytes: line.count, limit: EventParser.maxLineBytes)
        }
        if !storage.lineObjects.isEmpty { storage.lineObjects = CanonicalWriter.WrittenObjects() }
        if tryingFastPath, storage.usesFastPath, storage.fastPathDeclines.shouldTry() {
            // Set first, so that the event goes straight to the caller
            // (the general parser's path sets it again).
            storage.lastLineIsCanonical = storage.checksCanonicalForm
            do {
                let event = try CanonicalLineParser.parse(line, storage: storage)
                storage.fastPathDeclines.accepted()
                return event
            } catch {
                storage.fastPathDeclines.declined()
            }
        }
        var parser = GeneralLineParser(reader: JSONReader(line), storage: storage)
        storage.lastLineIsCanonical = false
        return try parser.parse()
    }

    /// Whether the line last parsed is exactly the canonical form of its event
    /// (the bytes ``CanonicalWriter`` writes for it), so a writer can keep the
    /// line instead of encoding the event again. `false` means "not known to
    /// be": the check is cheap and conservative (it gives up on escapes, `meta`,
    /// objects and route arrays, for example). Always `false` after a line
    /// that was rejected, and from a parser made without `checkingCanonicalForm`.
    public var lastLineIsCanonical: Bool { storage.lastLineIsCanonical }

    /// Writes `event`, the event of the line this parser read last, as
    /// ``CanonicalWriter/write(_:)`` writes it: objects of the line the parser
    /// has seen before (``ObjectValueCache``) are not written again.
    package func writeCanonical(_ event: Event, into writer: inout CanonicalWriter) {
        guard !storage.lineObjects.isEmpty else { return writer.write(event) }
        writer.writtenObjects = storage.lineObjects
        writer.write(event)
        writer.writtenObjects = CanonicalWriter.WrittenObjects()
    }

    /// Parses one line given as bytes.
    public mutating func parse(_ line: [UInt8]) throws(EventParseError) -> Event {
        try line.withUnsafeBytes { buf in Result { () throws(EventParseError) in try parse(buf) } }.get()
    }
}

extension JSONValue {
    /// Parses any JSON text (the same limits and strictness as event lines).
    public static func parse(_ text: String) throws(EventParseError) -> JSONValue {
        var text = text
        return try text.withUTF8 { buf in
            Result { () throws(EventParseError) -> JSONValue in
                let raw = UnsafeRawBufferPointer(buf)
                guard raw.count <= EventParser.maxLineBytes else {
                    throw .lineTooLong(bytes: raw.count, limit: EventParser.maxLineBytes)
                }
                var reader = JSONReader(raw)
                let value = try reader.parseValue()
                reader.skipWhitespace()
                guard reader.atEnd else { throw reader.unexpected("end of input") }
                return value
            }
        }.get()
    }
}
