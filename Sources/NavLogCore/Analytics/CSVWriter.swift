// Analytics/: Funnels, screen paths, flat exports (rows, CSV) and redaction, over sessions' occurrences or their screen projection.

/// Writes CSV per RFC 4180: a field is quoted when it holds a comma, a
/// double quote, CR or LF (inner quotes doubled); lines end in `\n` (as
/// docs/analytics.md asks for funnels).
///
/// ```swift
/// var csv = CSVWriter()
/// csv.row(["session", "seq"])
/// csv.row(["s-1", "3"])       // csv.bytes: "session,seq\ns-1,3\n"
/// ```
public struct CSVWriter: Sendable {
    /// What has been written so far.
    public var bytes: [UInt8]

    public init(capacity: Int = 1 << 12) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the capacity.
    public mutating func reset() { bytes.removeAll(keepingCapacity: true) }

    /// What has been written, as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Writes one line of fields.
    public mutating func row(_ fields: [String]) {
        for (i, text) in fields.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            field(text)
        }
        endRow()
    }

    /// Writes one field, preceded by a comma unless `first`.
    public mutating func field(_ text: String, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        field(text)
    }

    /// Writes an integer field, preceded by a comma unless `first`.
    public mutating func field(_ value: Int, first: Bool) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        var writer = CanonicalWriter(capacity: 20)
        writer.writeInt(value)
        bytes.append(contentsOf: writer.bytes)
    }

    /// Ends the current line.
    public mutating func endRow() { bytes.append(0x0A) }

    /// Writes UTF-8 bytes as one field, preceded by a comma unless `first`.
    public mutating func field(bytes: UnsafeBufferPointer<UInt8>, first: Bool) {
        if !first { self.bytes.append(0x2C) }
        field(bytes)
    }

    private mutating func field(_ text: String) {
        var text = text
        text.withUTF8 { field($0) }
    }

    /// `text` as one field, quoted when it must be: for a line made as a string.
    public static func field(_ text: String) -> String {
        guard needsQuotes(text.utf8) else { return text }
        var writer = CSVWriter(capacity: text.utf8.count + 8)
        writer.field(text)
        return writer.string
    }

    /// Whether a field must be quoted: it holds a comma, a double quote, CR or LF.
    @inline(__always)
    static func needsQuotes<Bytes: Sequence<UInt8>>(_ utf8: Bytes) -> Bool {
        utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
    }

    private mutating func field(_ utf8: UnsafeBufferPointer<UInt8>) { Self.append(field: utf8, to: &bytes) }

    /// Appends UTF-8 bytes as one field (no comma), quoted when they must be.
    static func append(field utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        guard needsQuotes(utf8) else { bytes.append(contentsOf: utf8); return }
        // Made in place: the quoted field's length is known once its quotes are counted.
        var quotes = 0
        for byte in utf8 where byte == 0x22 { quotes += 1 }
        var n = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: utf8.count + quotes + 2))
        bytes.withUnsafeMutableBufferPointer { out in
            out[n] = 0x22
            n += 1
            for byte in utf8 {
                out[n] = byte
                n += 1
                if byte == 0x22 {
                    out[n] = 0x22
                    n += 1
                }
            }
            out[n] = 0x22
        }
    }
}
