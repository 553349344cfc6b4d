extension GeneralLineParser {
    // MARK: Field decoding

    /// The fields ``decodeEarly(_:)`` knows.
    @inline(__always) static var earlyKeys: UInt32 {
        CanonicalKey.session.bit | CanonicalKey.t.bit | CanonicalKey.seq.bit | CanonicalKey.value.bit
    }

    @inline(__always) func has(_ key: CanonicalKey) -> Bool { present & key.bit != 0 }

    @inline(__always) func reader(at key: CanonicalKey) -> JSONReader {
        var sub = r
        sub.i = Int(slots[key.rawValue].start)
        sub.depth = 1
        return sub
    }

    /// The scanned string token of a field known to hold a string.
    @inline(__always) func stringToken(_ key: CanonicalKey) -> JSONReader.StringToken? {
        let slot = slots[key.rawValue]
        guard slot.isString else { return nil }
        return JSONReader.StringToken(start: Int(slot.start) + 1, end: Int(slot.end), hasEscapes: slot.hasEscapes)
    }

    func requiredString(_ key: CanonicalKey) throws(EventParseError) -> String {
        guard has(key) else { throw .missingField(field: key.name) }
        return try string(key)
    }

    func string(_ key: CanonicalKey) throws(EventParseError) -> String {
        guard let token = stringToken(key) else {
            var sub = reader(at: key)
            throw wrongType(key.name, "a string", &sub)
        }
        if token.hasEscapes { return r.string(token) }
        return storage.names.string(UnsafeRawBufferPointer(rebasing: r.bytes[token.start..<token.end]))
    }

    func integer(_ key: CanonicalKey) throws(EventParseError) -> Int {
        let slot = slots[key.rawValue]
        let start = Int(slot.start), end = Int(slot.end)
        let b = r.bytes
        let first = b[start]
        guard first == UInt8(ascii: "-") || (first &- UInt8(ascii: "0")) < 10 else {
            var sub = reader(at: key)
            throw wrongType(key.name, "an integer", &sub)
        }
        var value = 0
        var k = start
        let negative = first == UInt8(ascii: "-")
        if negative { k += 1 }
        while k < end {
            let d = b[k] &- UInt8(ascii: "0")
            guard d < 10 else {
                throw .wrongType(field: key.name, expected: "an integer", found: "a number with a fraction or exponent")
            }
            let (m, o1) = value.multipliedReportingOverflow(by: 10)
            let (s, o2) = negative ? m.subtractingReportingOverflow(Int(d)) : m.addingReportingOverflow(Int(d))
            if o1 || o2 {
                // Keep scanning: a fraction or exponent later is the better reason.
                var j = k
                while j < end, b[j] &- UInt8(ascii: "0") < 10 { j += 1 }
                if j < end {
                    throw .wrongType(field: key.name, expected: "an integer", found: "a number with a fraction or exponent")
                }
                throw .invalidValue(field: key.name, reason: "integer out of range")
            }
            value = s
            k += 1
        }
        return value
    }

    func bool(_ key: CanonicalKey) throws(EventParseError) -> Bool {
        var sub = reader(at: key)
        switch sub.peek() {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw wrongType(key.name, "a boolean", &sub)
        }
    }

    func timestamp(_ key: CanonicalKey) throws(EventParseError) -> Timestamp {
        guard let token = stringToken(key) else {
            var sub = reader(at: key)
            throw wrongType(key.name, "an RFC 3339 string", &sub)
        }
        let sub = r
        if !token.hasEscapes,
           let t = storage.timestamps.parse(UnsafeRawBufferPointer(rebasing: sub.bytes[token.start..<token.end])) {
            return t
        }
        if !token.hasEscapes,
           let t = Timestamp(rfc3339Bytes: UnsafeRawBufferPointer(rebasing: sub.bytes[token.start..<token.end])) {
            return t
        }
        let text = sub.string(token)
        if token.hasEscapes, let t = Timestamp(rfc3339: text) { return t }
        throw .invalidValue(field: key.name, reason: Timestamp.refusal(rfc3339: text))
    }

    func enumeration<E: RawRepresentable & CaseIterable>(_ key: CanonicalKey) throws(EventParseError) -> E
    where E.RawValue == String {
        let s = try string(key)
        guard let v = E(rawValue: s) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidValue(field: key.name, reason: "\"\(s.prefix(64))\" is not one of \(allowed)")
        }
        return v
    }

    func object(_ key: CanonicalKey) throws(EventParseError) -> [String: JSONValue] {
        var sub = reader(at: key)
        guard sub.peek() == UInt8(ascii: "{") else { throw wrongType(key.name, "an object", &sub) }
        sub.depth = 0
        return try sub.parseObjectMembers()
    }

    /// The object of field `app`, `device` or `meta`, through the storage's
    /// cache of objects seen before (``ObjectValueCache``); its canonical
    /// bytes are kept in ``LineParserStorage/lineObjects`` for the canonical writer.
    func knownObject(_ key: CanonicalKey) throws(EventParseError) -> [String: JSONValue] {
        let slot = slots[key.rawValue]
        let raw = UnsafeRawBufferPointer(rebasing: r.bytes[Int(slot.start)..<Int(slot.end)])
        let (decoded, canonical) = try storage.objects.object(raw) { () throws(EventParseError) in try object(key) }
        switch key {
        case .app: storage.lineObjects.app = canonical
        case .device: storage.lineObjects.device = canonical
        default: storage.lineObjects.meta = canonical
        }
        return decoded
    }

    func strings(_ key: CanonicalKey) throws(EventParseError) -> [String] {
        try array(key, "an array of strings") { (sub, index) throws(EventParseError) in
            guard sub.peek() == UInt8(ascii: "\"") else { throw wrongType("\(key.name)[\(index)]", "a string", &sub) }
            return sub.string(try sub.scanString())
        }
    }

    func requiredRoute(_ key: CanonicalKey) throws(EventParseError) -> RouteValue {
        guard has(key) else { throw .missingField(field: key.name) }
        var sub = reader(at: key)
        return try Self.route(&sub, field: key.name, names: storage.names)
    }

    func routes(_ key: CanonicalKey) throws(EventParseError) -> [RouteValue] {
        try array(key, "an array of route values") { (sub, index) throws(EventParseError) in
            try Self.route(&sub, field: key.name, index: index, names: storage.names)
        }
    }

    /// Field `key`'s array (`expected` names it in a rejection), each
    /// element read by `element` at the reader, given its index.
    func array<Element>(
        _ key: CanonicalKey, _ expected: String,
        _ element: (inout JSONReader, Int) throws(EventParseError) -> Element
    ) throws(EventParseError) -> [Element] {
        var sub = reader(at: key)
        guard sub.peek() == UInt8(ascii: "[") else { throw wrongType(key.name, expected, &sub) }
        sub.i += 1
        var out: [Element] = []
        sub.skipWhitespace()
        if sub.peek() == UInt8(ascii: "]") { return out }
        while true {
            sub.skipWhitespace()
            out.append(try element(&sub, out.count))
            sub.skipWhitespace()
            if sub.peek() == UInt8(ascii: ",") { sub.i += 1; continue }
            return out  // validated by the first pass: this is ']'
        }
    }

    func wrongType(_ field: String, _ expected: String, _ sub: inout JSONReader) -> EventParseError {
        Self.wrongTypeStatic(field, expected, &sub)
    }

    static func wrongTypeStatic(_ field: String, _ expected: String, _ sub: inout JSONReader) -> EventParseError {
        let found = (try? sub.parseValue())?.typeName ?? "invalid JSON"
        return .wrongType(field: field, expected: expected, found: found)
    }
}
