#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The general line parser behind ``EventLineParser``: any line, in any
/// layout JSON allows, accepted or rejected with the reason. Lines already
/// in canonical form are read first by the faster ``CanonicalLineParser``;
/// this parser decides every line that one declines. It scans the line once
/// (this file), then decodes the known fields the kind's row of
/// ``KindSpec/table`` names (`+Build`, `+Fields`, `+Route`) and, when asked,
/// tells whether the line was canonical (`+Canonical`).
struct GeneralLineParser {
    var r: JSONReader
    let storage: LineParserStorage
    /// Where each known field's value is, by ``CanonicalKey`` raw value.
    let slots: UnsafeMutablePointer<ValueSlot>
    /// Which known fields are present (non-null).
    var present: UInt32 = 0
    /// Which known fields appeared at all (to catch duplicates).
    var seen: UInt32 = 0
    var extra: [String: JSONValue] = [:]
    /// Values decoded during the scan (see ``decodeEarly(_:)``).
    var early = EarlyValues()
    /// Which known fields hold a string with escapes.
    var escaped: UInt32 = 0
    /// Whether the line is, so far as seen, exactly the canonical form of its
    /// event (see ``EventLineParser/lastLineIsCanonical``); `false` from the
    /// start when the parser does not check.
    var canonical: Bool

    init(reader: JSONReader, storage: LineParserStorage) {
        self.r = reader
        self.storage = storage
        self.slots = storage.slots
        self.canonical = storage.checksCanonicalForm
    }

    @inline(__always)
    mutating func parse() throws(EventParseError) -> Event {
        r.skipWhitespace()
        guard r.peek() == UInt8(ascii: "{") else {
            if r.atEnd { throw .notAnObject(found: "an empty line") }
            var probe = r
            if let v = try? probe.parseValue() { throw .notAnObject(found: v.typeName) }
            throw r.unexpected("'{'")
        }
        if r.i != 0 { canonical = false }
        r.depth = 1
        r.i += 1
        if r.peek() != UInt8(ascii: "\"") { canonical = false }
        r.skipWhitespace()
        // Where the previous key's bytes lie, to see that keys come sorted.
        var previousKey = 0..<0
        if r.peek() == UInt8(ascii: "}") {
            r.i += 1
        } else {
            while true {
                if r.peek() != UInt8(ascii: "\"") { canonical = false }
                r.skipWhitespace()
                var key: CanonicalKey? = nil
                var name: String? = nil
                let keyBytes: Range<Int>
                if let plain = storage.keys.match(r.bytes, at: r.i) {
                    key = plain.key
                    keyBytes = (r.i + 1)..<(r.i + plain.length - 2)
                    r.i += plain.length
                } else {
                    let keyToken = try r.scanString()
                    keyBytes = keyToken.start..<keyToken.end
                    if keyToken.hasEscapes || r.peek() != UInt8(ascii: ":") { canonical = false }
                    try r.expect(UInt8(ascii: ":"), "':'")
                    key = keyToken.hasEscapes ? nil
                        : CanonicalKey.named(UnsafeRawBufferPointer(rebasing: r.bytes[keyToken.start..<keyToken.end]))
                    if key == nil {
                        let decoded = r.string(keyToken)
                        name = decoded
                        if keyToken.hasEscapes { key = CanonicalKey.named(decoded) }
                    }
                }
                if canonical {
                    if !previousKey.isEmpty, !Self.ascending(previousKey, keyBytes, in: r.bytes) { canonical = false }
                    previousKey = keyBytes
                    if r.peek() &- 0x21 > 0x5D { canonical = false }  // whitespace (or worse) before the value
                }
                r.skipWhitespace()
                if let key {
                    let bit = key.bit
                    if seen & bit != 0 { throw .duplicateKey(field: key.name) }
                    seen |= bit
                    let start = r.i
                    if Self.earlyKeys & bit != 0, try decodeEarly(key) {
                        present |= bit
                        slots[key.rawValue] = ValueSlot(start: Int32(start), end: Int32(r.i),
                                                        isString: r.bytes[start] == UInt8(ascii: "\""), hasEscapes: false)
                    } else { switch r.peek() {
                    case UInt8(ascii: "\""):
                        let token = try r.scanString()
                        present |= bit
                        if token.hasEscapes { escaped |= bit }
                        slots[key.rawValue] = ValueSlot(start: Int32(start), end: Int32(token.end),
                                                        isString: true, hasEscapes: token.hasEscapes)
                    case UInt8(ascii: "n"):
                        try r.literal("null")  // null: absent
                        canonical = false
                    default:
                        try r.skipValue()
                        present |= bit
                        slots[key.rawValue] = ValueSlot(start: Int32(start), end: Int32(r.i),
                                                        isString: false, hasEscapes: false)
                    } }
                } else if let name {
                    let start = r.i
                    let value = try r.parseValue()
                    if canonical, !Self.isCanonicalScalar(value, r.bytes[start..<r.i]) { canonical = false }
                    if case .null = value {
                        if extra.keys.contains(name) { throw .duplicateKey(field: name) }
                        extra[name] = .null  // kept for duplicate detection; dropped below
                    } else if extra.updateValue(value, forKey: name) != nil {
                        throw .duplicateKey(field: name)
                    }
                }
                let b = r.peek()
                if b == UInt8(ascii: ",") { r.i += 1; continue }
                if b == UInt8(ascii: "}") { r.i += 1; break }
                canonical = false
                r.skipWhitespace()
                let c = r.peek()
                if c == UInt8(ascii: ",") { r.i += 1; continue }
                if c == UInt8(ascii: "}") { r.i += 1; break }
                throw r.unexpected("',' or '}'")
            }
        }
        if !r.atEnd { canonical = false }
        r.skipWhitespace()
        guard r.atEnd else { throw r.unexpected("end of line after the object") }
        if !extra.isEmpty { extra = extra.filter { if case .null = $0.value { false } else { true } } }
        return try build()
    }

    /// Decodes the common plain forms of a few fields while scanning, so
    /// they are not scanned twice: the session id when it repeats the last
    /// line's, a canonical `t`, a plain positive `seq`, and a route-value
    /// object under `value`. Returns whether it consumed the value (the
    /// reader is then just past it); otherwise the reader has not moved
    /// and the general scan handles the value.
    @inline(__always)
    mutating func decodeEarly(_ key: CanonicalKey) throws(EventParseError) -> Bool {
        let b = r.bytes
        let i = r.i
        switch key {
        case .session:
            let n = storage.sessionBytes.count
            guard n > 0, i + n + 2 <= b.count, b[i] == UInt8(ascii: "\""), b[i + n + 1] == UInt8(ascii: "\""),
                  memcmp(storage.sessionBytes.baseAddress!, b.baseAddress! + i + 1, n) == 0
            else { return false }
            early.session = storage.session
            r.i = i + n + 2
            return true
        case .t:
            guard i + 26 <= b.count, b[i] == UInt8(ascii: "\""), b[i + 25] == UInt8(ascii: "\""),
                  let t = storage.timestamps.parse(UnsafeRawBufferPointer(rebasing: b[(i + 1)..<(i + 25)]))
            else { return false }
            early.t = t
            r.i = i + 26
            return true
        case .seq:
            // 1 to 18 digits, no sign, no leading zero, then a delimiter.
            var k = i
            var value = 0
            while k < b.count, k - i < 18 {
                let d = b[k] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                value = value * 10 + Int(d)
                k += 1
            }
            guard k > i, b[i] != UInt8(ascii: "0"), k < b.count,
                  b[k] == UInt8(ascii: ",") || b[k] == UInt8(ascii: "}")
            else { return false }
            early.seq = value
            r.i = k
            return true
        case .value:
            guard i < b.count, b[i] == UInt8(ascii: "{") else { return false }
            return decodeRouteEarly()
        default:
            return false
        }
    }

    /// A route value written `{"id":"ID","type":"TYPE"}` or `{"type":"TYPE"}`
    /// exactly (the canonical layout, escapes allowed) at `i`: the route, the
    /// offset just past it, and whether neither string has escapes. `nil` for
    /// anything else, which the general decoder then handles.
    @inline(__always)
    func plainRoute(at i: Int) -> (RouteValue, Int, Bool)? {
        let b = r.bytes
        func has(_ literal: StaticString, at offset: Int) -> Bool {
            let n = literal.utf8CodeUnitCount
            return offset + n <= b.count && memcmp(b.baseAddress! + offset, literal.utf8Start, n) == 0
        }
        var sub = r
        var id: JSONReader.StringToken? = nil
        if has(#"{"id":""#, at: i) {
            sub.i = i + 6
            guard let token = try? sub.scanString(), has(#","type":""#, at: sub.i) else { return nil }
            id = token
            sub.i += 8
        } else if has(#"{"type":""#, at: i) {
            sub.i = i + 8
        } else {
            return nil
        }
        guard let type = try? sub.scanString(), type.end > type.start, sub.peek() == UInt8(ascii: "}") else { return nil }
        let names = storage.names
        let route = RouteValue(type: sub.name(type, names), id: id.map { sub.name($0, names) })
        return (route, sub.i + 1, !type.hasEscapes && !(id?.hasEscapes ?? false))
    }

    /// Decodes a route-value object under `value` during the scan; `false`
    /// (reader not moved) when it is not one.
    @inline(never)
    mutating func decodeRouteEarly() -> Bool {
        let i = r.i
        if let (route, end, plain) = plainRoute(at: i) {
            early.route = route
            early.routeIsCanonical = plain
            r.i = end
            return true
        }
        var sub = r
        sub.depth = 1
        do {
            early.route = try Self.route(&sub, field: "value", names: storage.names)
        } catch {
            return false  // not a route value: scanned generally (an extra field, or an error there)
        }
        if canonical {
            let route = early.route!
            // With data: canonical when written again exactly as it is.
            early.routeIsCanonical = route.data == nil
                ? Self.isCanonicalRoute(route, r.bytes[i..<sub.i]) : writesBack(i..<sub.i) { $0.write(route) }
        }
        r.i = sub.i
        return true
    }
}

/// Field values a ``GeneralLineParser`` decoded during its scan.
struct EarlyValues {
    var session: String?
    var t: Timestamp?
    var seq: Int?
    var route: RouteValue?
    /// Whether `route` was written exactly in its canonical form.
    var routeIsCanonical = false
}

/// Where a known field's value lies in the line.
struct ValueSlot {
    /// Offset of the value's first byte (the quote, for a string).
    var start: Int32
    /// Offset just past the value (of the closing quote, for a string).
    var end: Int32
    var isString: Bool
    var hasEscapes: Bool
}
