/// A strict, allocation-free JSON scanner over one line's UTF-8 bytes.
///
/// It validates as it goes (RFC 8259 grammar, UTF-8, escapes, surrogate
/// pairs, nesting depth) and hands out byte ranges; turning them into Swift
/// values is left to the caller, so a parser can skip what it does not need
/// and decode the rest only once.
struct JSONReader {
    let bytes: UnsafeRawBufferPointer
    var i: Int
    var depth: Int = 0
    let maxDepth: Int

    init(_ bytes: UnsafeRawBufferPointer, at i: Int = 0, maxDepth: Int = EventParser.maxDepth) {
        self.bytes = bytes
        self.i = i
        self.maxDepth = maxDepth
    }

    @inline(__always) var atEnd: Bool { i >= bytes.count }

    @inline(__always) func peek() -> UInt8 { i < bytes.count ? bytes[i] : 0 }

    @inline(__always) mutating func skipWhitespace() {
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i += 1 } else { return }
        }
    }

    func error(_ reason: String) -> EventParseError { .invalidJSON(offset: i, reason: reason) }

    func unexpected(_ expected: String) -> EventParseError {
        if i >= bytes.count { return .invalidJSON(offset: i, reason: "unexpected end of line, expected \(expected)") }
        let b = bytes[i]
        if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBB, bytes[i + 2] == 0xBF {
            // What an editor on Windows may put first in a file.
            return .invalidJSON(offset: i, reason: "a UTF-8 byte order mark (EF BB BF), expected \(expected); save the file without it")
        }
        if b >= 0x80 { return .invalidJSON(offset: i, reason: "unexpected non-ASCII byte, expected \(expected)") }
        if b < 0x20 { return .invalidJSON(offset: i, reason: "unexpected control byte 0x\(String(b, radix: 16)), expected \(expected)") }
        return .invalidJSON(offset: i, reason: "unexpected '\(Character(Unicode.Scalar(b)))', expected \(expected)")
    }

    @inline(__always) mutating func expect(_ c: UInt8, _ what: String) throws(EventParseError) {
        skipWhitespace()
        guard i < bytes.count, bytes[i] == c else { throw unexpected(what) }
        i += 1
    }

    // MARK: Strings

    /// A scanned string: the bytes between the quotes, and whether any escape occurs.
    struct StringToken {
        var start: Int
        var end: Int
        var hasEscapes: Bool
    }

    /// Scans a string starting at its opening quote; validates UTF-8 and escapes.
    mutating func scanString() throws(EventParseError) -> StringToken {
        guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw unexpected("a string") }
        i += 1
        let start = i
        var escapes = false
        let n = bytes.count
        if let base = bytes.baseAddress { i = PlainStringRun.end(in: base, count: n, from: i) }
        while i < n {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let token = StringToken(start: start, end: i, hasEscapes: escapes)
                i += 1
                return token
            } else if b == UInt8(ascii: "\\") {
                escapes = true
                try scanEscape()
            } else if b < 0x20 {
                throw error("control character 0x\(String(b, radix: 16)) in a string must be escaped")
            } else if b < 0x80 {
                i += 1
            } else {
                try scanUTF8Sequence()
            }
        }
        throw .invalidJSON(offset: i, reason: "unterminated string")
    }

    private mutating func scanEscape() throws(EventParseError) {
        // at backslash
        guard i + 1 < bytes.count else { throw .invalidJSON(offset: i, reason: "unterminated escape") }
        let c = bytes[i + 1]
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
        case UInt8(ascii: "u"):
            let unit = try hex4(at: i + 2)
            if unit >= 0xD800 && unit <= 0xDBFF {
                guard i + 7 < bytes.count, bytes[i + 6] == UInt8(ascii: "\\"), bytes[i + 7] == UInt8(ascii: "u")
                else { throw .invalidJSON(offset: i, reason: "unpaired surrogate escape") }
                let low = try hex4(at: i + 8)
                guard low >= 0xDC00 && low <= 0xDFFF else {
                    throw .invalidJSON(offset: i, reason: "unpaired surrogate escape")
                }
                i += 12
            } else if unit >= 0xDC00 && unit <= 0xDFFF {
                throw .invalidJSON(offset: i, reason: "unpaired surrogate escape")
            } else {
                i += 6
            }
        default:
            throw .invalidJSON(offset: i, reason: "invalid escape")
        }
    }

    private func hex4(at j: Int) throws(EventParseError) -> UInt32 {
        guard j + 4 <= bytes.count else { throw .invalidJSON(offset: j, reason: "truncated \\u escape") }
        var v: UInt32 = 0
        for k in j..<(j + 4) {
            let b = bytes[k]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw .invalidJSON(offset: k, reason: "invalid hex digit in \\u escape")
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Validates one multi-byte UTF-8 sequence at `i` (RFC 3629: no overlongs,
    /// no surrogates, nothing above U+10FFFF).
    private mutating func scanUTF8Sequence() throws(EventParseError) {
        let b0 = bytes[i]
        let n = bytes.count
        @inline(__always) func cont(_ k: Int) -> Bool { k < n && bytes[k] & 0xC0 == 0x80 }
        if b0 >= 0xC2 && b0 <= 0xDF {
            guard cont(i + 1) else { throw .invalidUTF8(offset: i) }
            i += 2
        } else if b0 >= 0xE0 && b0 <= 0xEF {
            guard cont(i + 1), cont(i + 2) else { throw .invalidUTF8(offset: i) }
            let b1 = bytes[i + 1]
            if b0 == 0xE0 && b1 < 0xA0 { throw .invalidUTF8(offset: i) }  // overlong
            if b0 == 0xED && b1 >= 0xA0 { throw .invalidUTF8(offset: i) }  // surrogate
            i += 3
        } else if b0 >= 0xF0 && b0 <= 0xF4 {
            guard cont(i + 1), cont(i + 2), cont(i + 3) else { throw .invalidUTF8(offset: i) }
            let b1 = bytes[i + 1]
            if b0 == 0xF0 && b1 < 0x90 { throw .invalidUTF8(offset: i) }
            if b0 == 0xF4 && b1 >= 0x90 { throw .invalidUTF8(offset: i) }
            i += 4
        } else {
            throw .invalidUTF8(offset: i)
        }
    }

    /// The decoded text of a scanned string.
    /// The string of a token, through `names` when it has no escapes.
    @inline(__always) func name(_ t: StringToken, _ names: StringInterner) -> String {
        if t.hasEscapes { return string(t) }
        return names.string(UnsafeRawBufferPointer(rebasing: bytes[t.start..<t.end]))
    }

    func string(_ t: StringToken) -> String {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[t.start..<t.end])
        if !t.hasEscapes { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(t.end - t.start)
        var k = t.start
        while k < t.end {
            let b = bytes[k]
            if b != UInt8(ascii: "\\") { out.append(b); k += 1; continue }
            let c = bytes[k + 1]
            switch c {
            case UInt8(ascii: "b"): out.append(0x08); k += 2
            case UInt8(ascii: "f"): out.append(0x0C); k += 2
            case UInt8(ascii: "n"): out.append(0x0A); k += 2
            case UInt8(ascii: "r"): out.append(0x0D); k += 2
            case UInt8(ascii: "t"): out.append(0x09); k += 2
            case UInt8(ascii: "u"):
                // Already validated by scanString.
                var scalar = (try? hex4(at: k + 2)) ?? 0xFFFD
                k += 6
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    let low = (try? hex4(at: k + 2)) ?? 0xDC00
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                }
                appendUTF8(scalar, to: &out)
            default: out.append(c); k += 2  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func appendUTF8(_ v: UInt32, to out: inout [UInt8]) {
        switch v {
        case 0..<0x80: out.append(UInt8(v))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (v >> 6)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (v >> 12)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (v >> 18)))
            out.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (v & 0x3F)))
        }
    }

    /// Whether a scanned, escape-free string equals an ASCII name.
    @inline(__always) func equals(_ t: StringToken, _ name: StaticString) -> Bool {
        let len = name.utf8CodeUnitCount
        guard !t.hasEscapes, t.end - t.start == len else { return false }
        let p = name.utf8Start
        for k in 0..<len where bytes[t.start + k] != p[k] { return false }
        return true
    }

    // MARK: Numbers

    /// Scans a JSON number; returns whether it is an integer literal (no
    /// fraction, no exponent).
    mutating func scanNumber() throws(EventParseError) -> Bool {
        let n = bytes.count
        if i < n, bytes[i] == UInt8(ascii: "-") { i += 1 }
        guard i < n else { throw unexpected("a digit") }
        if bytes[i] == UInt8(ascii: "0") {
            i += 1
        } else if bytes[i] >= UInt8(ascii: "1") && bytes[i] <= UInt8(ascii: "9") {
            i += 1
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        } else {
            throw unexpected("a digit")
        }
        var integer = true
        if i < n, bytes[i] == UInt8(ascii: ".") {
            integer = false
            i += 1
            guard i < n, bytes[i] &- UInt8(ascii: "0") < 10 else { throw unexpected("a digit after '.'") }
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        }
        if i < n, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            integer = false
            i += 1
            if i < n, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard i < n, bytes[i] &- UInt8(ascii: "0") < 10 else { throw unexpected("a digit in the exponent") }
            while i < n, bytes[i] &- UInt8(ascii: "0") < 10 { i += 1 }
        }
        return integer
    }

    // MARK: Any value

    /// Skips one value, validating it completely.
    mutating func skipValue() throws(EventParseError) {
        skipWhitespace()
        guard i < bytes.count else { throw unexpected("a value") }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "{"):
            try enter()
            i += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "}") { i += 1; depth -= 1; return }
            while true {
                skipWhitespace()
                _ = try scanString()
                try expect(UInt8(ascii: ":"), "':'")
                try skipValue()
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { i += 1; continue }
                if peek() == UInt8(ascii: "}") { i += 1; break }
                throw unexpected("',' or '}'")
            }
            depth -= 1
        case UInt8(ascii: "["):
            try enter()
            i += 1
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return }
            while true {
                try skipValue()
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { i += 1; continue }
                if peek() == UInt8(ascii: "]") { i += 1; break }
                throw unexpected("',' or ']'")
            }
            depth -= 1
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default:
            _ = try scanNumber()
        }
    }

    @inline(__always) mutating func enter() throws(EventParseError) {
        depth += 1
        if depth > maxDepth { throw .nestedTooDeep(offset: i, limit: maxDepth) }
    }

    mutating func literal(_ word: StaticString) throws(EventParseError) {
        let len = word.utf8CodeUnitCount
        let p = word.utf8Start
        guard i + len <= bytes.count else { throw unexpected("'\(word)'") }
        for k in 0..<len where bytes[i + k] != p[k] { throw unexpected("'\(word)'") }
        i += len
    }

    /// Parses one value into a ``JSONValue``.
    mutating func parseValue() throws(EventParseError) -> JSONValue {
        skipWhitespace()
        guard i < bytes.count else { throw unexpected("a value") }
        switch bytes[i] {
        case UInt8(ascii: "\""):
            return .string(string(try scanString()))
        case UInt8(ascii: "{"):
            return .object(try parseObjectMembers())
        case UInt8(ascii: "["):
            try enter()
            i += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(items) }
            while true {
                items.append(try parseValue())
                skipWhitespace()
                if peek() == UInt8(ascii: ",") { i += 1; continue }
                if peek() == UInt8(ascii: "]") { i += 1; break }
                throw unexpected("',' or ']'")
            }
            depth -= 1
            return .array(items)
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default:
            let start = i
            _ = try scanNumber()
            return .number(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self))
        }
    }

    /// Parses an object (at its `{`) into a dictionary; duplicate keys are errors.
    mutating func parseObjectMembers() throws(EventParseError) -> [String: JSONValue] {
        try enter()
        i += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek() == UInt8(ascii: "}") { i += 1; depth -= 1; return members }
        while true {
            skipWhitespace()
            let key = string(try scanString())
            try expect(UInt8(ascii: ":"), "':'")
            let value = try parseValue()
            if members.updateValue(value, forKey: key) != nil { throw .duplicateKey(field: key) }
            skipWhitespace()
            if peek() == UInt8(ascii: ",") { i += 1; continue }
            if peek() == UInt8(ascii: "}") { i += 1; break }
            throw unexpected("',' or '}'")
        }
        depth -= 1
        return members
    }
}
