// STUB: being written (owner: lead). Signatures are final.

/// Parses one NDJSON line into an ``Event`` with full validation (contract §1, §5).
public enum EventParser {
    /// The longest line accepted, in bytes (1 MiB).
    public static let maxLineBytes = 1 << 20
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 64

    /// Parses one line (without its newline). `seq` is 0 when the line has none.
    public static func parse(_ line: UnsafeRawBufferPointer) throws(EventParseError) -> Event {
        throw .notAnObject(found: "stub")
    }

    /// Parses one line given as bytes.
    public static func parse(_ line: [UInt8]) throws(EventParseError) -> Event {
        try line.withUnsafeBytes { buf in Result { () throws(EventParseError) in try parse(buf) } }.get()
    }

    /// Parses one line given as a string.
    public static func parse(_ line: String) throws(EventParseError) -> Event {
        var line = line
        return try line.withUTF8 { buf in
            Result { () throws(EventParseError) in try parse(UnsafeRawBufferPointer(buf)) }
        }.get()
    }
}

extension JSONValue {
    /// Parses any JSON text (same limits and strictness as event lines).
    public static func parse(_ text: String) throws(EventParseError) -> JSONValue {
        throw .notAnObject(found: "stub")
    }
}
