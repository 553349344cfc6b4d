/// What the first bytes of an input say it is: a `.navlog` log
/// (``Preamble/isLog(_:)``), binary data (neither a log nor
/// NDJSON), or text that is read as NDJSON line by line. The one place that
/// tells them apart: ``NDJSONLineReader`` refuses a binary input or a log
/// at its first read, so that a wrong file gives one line, not a rejection
/// per line.
public enum InputContent: Hashable, Sendable {
    /// A `.navlog` log, perhaps with a damaged header (``Preamble/isLog(_:)``).
    case navlog
    /// Binary data; `offset` is the first byte that cannot be in NDJSON text.
    case binary(offset: Int)
    /// Text (perhaps empty): NDJSON, or lines to reject one by one.
    case text

    /// How many leading bytes ``init(prefix:)`` looks at.
    public static let sampleBytes = 8192

    /// Classifies an input by its first bytes (at most ``sampleBytes`` are
    /// looked at). Binary: a NUL byte, or more than an eighth of the bytes
    /// are control bytes (other than tab, line feed, carriage return, form
    /// feed and escape) or not UTF-8. A line or two of damage in a text
    /// input stays text, and is rejected line by line.
    ///
    /// - Complexity: O(min(n, ``sampleBytes``)).
    public init(prefix: UnsafeRawBufferPointer) {
        if Preamble.isLog(prefix) {
            self = .navlog
            return
        }
        let sample = UnsafeRawBufferPointer(rebasing: prefix.prefix(Self.sampleBytes))
        var first: Int? = nil
        var odd = 0
        var i = 0
        while i < sample.count {
            let byte = sample[i]
            var length = 1
            var isText = true
            if byte == 0 {
                self = .binary(offset: first ?? i)
                return
            } else if byte < 0x20 {
                isText = byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C || byte == 0x1B
            } else if byte >= 0x80 {
                length = Self.utf8Length(sample, at: i)
                isText = length > 0
                length = max(length, 1)
            }
            if !isText {
                odd += 1
                if first == nil { first = i }
            }
            i += length
        }
        if let first, odd * 8 > sample.count {
            self = .binary(offset: first)
        } else {
            self = .text
        }
    }

    /// The length of the well-formed UTF-8 sequence at `i`, or 0. A
    /// sequence cut by the end of the sample counts as well-formed.
    private static func utf8Length(_ b: UnsafeRawBufferPointer, at i: Int) -> Int {
        let lead = b[i]
        let length: Int
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        var k = 1
        while k < length {
            guard i + k < b.count else { return k }
            if b[i + k] & 0xC0 != 0x80 { return 0 }
            k += 1
        }
        return length
    }
}
