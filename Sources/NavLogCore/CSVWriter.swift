/// Writes CSV per RFC 4180: a field is quoted when it holds a comma, a
/// double quote, CR or LF (inner quotes doubled); lines end in `\n` (as
/// contract §5 asks for funnels).
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

    private mutating func field(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            let needsQuotes = utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
            guard needsQuotes else { bytes.append(contentsOf: utf8); return }
            bytes.append(0x22)
            for b in utf8 {
                if b == 0x22 { bytes.append(0x22) }
                bytes.append(b)
            }
            bytes.append(0x22)
        }
    }
}
