/// Finds an NDJSON event line's session id without parsing the event: the
/// top-level `"session"` member's string, passed over the other members'
/// values by their JSON structure alone. Ingest uses it to send each line to
/// the thread that owns its session before the line is parsed.
///
/// ```swift
/// let line = Array(#"{"scene":"main","seq":3,"session":"s-1","t":"…","type":"mark"}"#.utf8)
/// line.withUnsafeBytes { SessionSkim.sessionBytes(in: $0) }   // the bytes of s-1
/// ```
///
/// The answer is `nil` whenever skimming cannot be sure: the line is not an
/// object, a key before `session` has escapes (`"sess\u0069on"` is that
/// key too), the session is not a string or has escapes, or the structure
/// breaks off. The caller then parses the line to learn its session. For a
/// line ``EventParser`` accepts, a non-`nil` answer is exactly the UTF-8 of
/// the event's `session`; for a line it rejects, the answer means nothing.
public enum SessionSkim {
    /// Where the session id's bytes are in `line` (between its quotes), or
    /// `nil` when skimming cannot be sure (see the type's notes).
    public static func sessionBytes(in line: UnsafeRawBufferPointer) -> Range<Int>? {
        guard let p = line.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return nil }
        let n = line.count
        if let range = sessionAfterSeq(p, n) { return range }
        if let range = sessionAfterPlainMembers(p, n) { return range }
        var i = skipWhitespace(p, n, from: 0)
        guard i < n, p[i] == UInt8(ascii: "{") else { return nil }
        i += 1
        while true {
            i = skipWhitespace(p, n, from: i)
            guard i < n, p[i] == UInt8(ascii: "\"") else { return nil }
            // The key: a plain string, else not sure.
            guard let keyEnd = plainStringEnd(p, n, from: i + 1) else { return nil }
            let isSession = keyEnd - (i + 1) == 7
                && p[i + 1] == UInt8(ascii: "s") && p[i + 2] == UInt8(ascii: "e") && p[i + 3] == UInt8(ascii: "s")
                && p[i + 4] == UInt8(ascii: "s") && p[i + 5] == UInt8(ascii: "i") && p[i + 6] == UInt8(ascii: "o")
                && p[i + 7] == UInt8(ascii: "n")
            i = skipWhitespace(p, n, from: keyEnd + 1)
            guard i < n, p[i] == UInt8(ascii: ":") else { return nil }
            i = skipWhitespace(p, n, from: i + 1)
            guard i < n else { return nil }
            if isSession {
                guard p[i] == UInt8(ascii: "\""), let end = plainStringEnd(p, n, from: i + 1) else { return nil }
                return (i + 1)..<end
            }
            guard let next = skipValue(p, n, from: i) else { return nil }
            i = skipWhitespace(p, n, from: next)
            guard i < n, p[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
    }

    /// The common case, cheaply: the members before `"session"` are written
    /// without whitespace between them, with plain keys, and values that are
    /// plain strings, scalars, or arrays and objects (passed by structure),
    /// as in a canonical line. `nil` for anything else, which the general
    /// walk then takes; when it answers, the general walk gives the same
    /// answer.
    @inline(__always)
    private static func sessionAfterPlainMembers(_ p: UnsafePointer<UInt8>, _ n: Int) -> Range<Int>? {
        guard n > 0, p[0] == UInt8(ascii: "{") else { return nil }
        let raw = UnsafeRawPointer(p)
        var i = 1
        // Room for `"session":"`, read as two overlapping words.
        while i + 11 <= n {
            guard p[i] == UInt8(ascii: "\"") else { return nil }
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == sessionKeyHead,
               raw.loadUnaligned(fromByteOffset: i + 3, as: UInt64.self) == sessionKeyTail {
                guard let end = plainStringEnd(p, n, from: i + 11) else { return nil }
                return (i + 11)..<end
            }
            guard let keyEnd = plainStringEnd(p, n, from: i + 1), keyEnd + 2 < n,
                  p[keyEnd + 1] == UInt8(ascii: ":")
            else { return nil }
            // `session` with some other value: the general walk decides.
            if keyEnd - i == 8, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) == sessionKeyHead { return nil }
            i = keyEnd + 2
            if p[i] == UInt8(ascii: "\"") {
                guard let end = plainStringEnd(p, n, from: i + 1) else { return nil }
                i = end + 1
            } else if p[i] == UInt8(ascii: "[") || p[i] == UInt8(ascii: "{") {
                // An array or object (a selection, a path, meta): passed by
                // its structure, as the general walk passes it.
                guard let next = skipValue(p, n, from: i) else { return nil }
                i = next
            } else {
                let start = i
                while i < n, isScalarByte(p[i]) { i += 1 }
                guard i > start else { return nil }
            }
            guard i < n, p[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
        return nil
    }

    /// The commonest start of a canonical line, `{"seq":N,"session":"`, with
    /// perhaps `"cause":N,` before `seq`, read a word at a time; `nil` for
    /// any other start, which the skims below then take (and they give the
    /// same answer for this one).
    @inline(__always)
    private static func sessionAfterSeq(_ p: UnsafePointer<UInt8>, _ n: Int) -> Range<Int>? {
        let raw = UnsafeRawPointer(p)
        var i = 1
        guard n > 9, p[0] == UInt8(ascii: "{") else { return nil }
        if raw.loadUnaligned(fromByteOffset: 1, as: UInt64.self) == causeKey {
            i = digitsEnd(p, n, from: 9)
            guard i > 9, i < n, p[i] == UInt8(ascii: ",") else { return nil }
            i += 1
        }
        guard i + 8 <= n, raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0xFFFF_FFFF_FFFF == seqKey else { return nil }
        let digits = i + 6
        i = digitsEnd(p, n, from: digits)
        // `,"session":"`, as two overlapping words from its quote.
        guard i > digits, i + 12 <= n, p[i] == UInt8(ascii: ","),
              raw.loadUnaligned(fromByteOffset: i + 1, as: UInt64.self) == sessionKeyHead,
              raw.loadUnaligned(fromByteOffset: i + 4, as: UInt64.self) == sessionKeyTail,
              let end = plainStringEnd(p, n, from: i + 12)
        else { return nil }
        return (i + 12)..<end
    }

    /// Just past the decimal digits at `start`.
    @inline(__always)
    private static func digitsEnd(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int) -> Int {
        var i = start
        while i < n, p[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        return i
    }

    /// `"cause":` as the little-endian word of its 8 bytes, and `"seq":` as
    /// the low 6 bytes of one.
    private static var causeKey: UInt64 { 0x3A22_6573_7561_6322 }
    private static var seqKey: UInt64 { 0x3A22_7165_7322 }

    /// `"session` and `ssion":"`, each as the little-endian word of its 8 bytes.
    private static var sessionKeyHead: UInt64 { 0x6E6F_6973_7365_7322 }
    private static var sessionKeyTail: UInt64 { 0x223A_226E_6F69_7373 }

    /// A byte of a number, `true`, `false` or `null`.
    @inline(__always)
    private static func isScalarByte(_ b: UInt8) -> Bool {
        (b &- UInt8(ascii: "0")) < 10 || (b | 0x20) &- UInt8(ascii: "a") < 26
            || b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || b == UInt8(ascii: ".")
    }

    /// JSON whitespace.
    @inline(__always)
    private static func skipWhitespace(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int) -> Int {
        var i = start
        while i < n, p[i] == 0x20 || p[i] == 0x09 || p[i] == 0x0D || p[i] == 0x0A { i += 1 }
        return i
    }

    /// The index of the first `"` or `\` at or after `start` (`n` when none),
    /// passing over other bytes eight at a time.
    @inline(__always)
    private static func nextQuoteOrBackslash(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int) -> Int {
        var i = start
        let raw = UnsafeRawPointer(p)
        while i + 8 <= n {
            let v = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let found = PlainStringRun.specialBytes(in: v, controlBytes: false, nonASCII: false)
            if found != 0 { return i + found.trailingZeroBitCount >> 3 }
            i += 8
        }
        while i < n, p[i] != UInt8(ascii: "\""), p[i] != UInt8(ascii: "\\") { i += 1 }
        return i
    }

    /// The index of the closing quote of a string whose first content byte
    /// is at `start`, when the string has no escape; `nil` otherwise.
    @inline(__always)
    private static func plainStringEnd(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int) -> Int? {
        let i = nextQuoteOrBackslash(p, n, from: start)
        return i < n && p[i] == UInt8(ascii: "\"") ? i : nil
    }

    /// Just past the value at `start` (string, object, array or scalar),
    /// by its structure alone; `nil` when it breaks off.
    private static func skipValue(_ p: UnsafePointer<UInt8>, _ n: Int, from start: Int) -> Int? {
        var i = start
        var depth = 0
        repeat {
            guard i < n else { return nil }
            switch p[i] {
            case UInt8(ascii: "\""):
                i += 1
                while true {
                    i = nextQuoteOrBackslash(p, n, from: i)
                    guard i < n else { return nil }
                    if p[i] == UInt8(ascii: "\"") { break }
                    i += 2  // an escape: its next byte is never the end
                }
                i += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                i += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                guard depth > 0 else { return nil }
                depth -= 1
                i += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"), 0x20, 0x09, 0x0D, 0x0A:
                guard depth > 0 else { return nil }
                i += 1
            default:
                // A scalar's bytes (number, true, false, null).
                i += 1
                if depth == 0 {
                    while i < n {
                        let b = p[i]
                        if b == UInt8(ascii: ",") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]")
                            || b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A { break }
                        i += 1
                    }
                }
            }
        } while depth > 0
        return i
    }
}
