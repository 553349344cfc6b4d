extension GeneralLineParser {
    /// Decodes a route value at the reader: an object keeping exactly
    /// `type` (non-empty string), `id` (string or integer literal) and `data`.
    static func route(
        _ sub: inout JSONReader, field: String, index: Int? = nil, names: StringInterner
    ) throws(EventParseError) -> RouteValue {
        func path() -> String { index.map { "\(field)[\($0)]" } ?? field }
        guard sub.peek() == UInt8(ascii: "{") else { throw wrongTypeStatic(path(), "a route value object", &sub) }
        sub.i += 1
        var type: String? = nil
        var id: String? = nil
        var data: JSONValue? = nil
        var seen: UInt8 = 0
        sub.skipWhitespace()
        if sub.peek() == UInt8(ascii: "}") {
            sub.i += 1
        } else {
            while true {
                sub.skipWhitespace()
                let key = try sub.scanString()
                try sub.expect(UInt8(ascii: ":"), "':'")
                sub.skipWhitespace()
                let isNull = sub.peek() == UInt8(ascii: "n")
                var name: String? = nil
                let bit: UInt8
                if sub.equals(key, "type") { bit = 1 } else if sub.equals(key, "id") { bit = 2 } else if sub.equals(key, "data") { bit = 4 } else {
                    let n = sub.string(key)
                    name = n
                    bit = n == "type" ? 1 : n == "id" ? 2 : n == "data" ? 4 : 0
                }
                if bit != 0 {
                    if seen & bit != 0 { throw .duplicateKey(field: "\(path()).\(name ?? (bit == 1 ? "type" : bit == 2 ? "id" : "data"))") }
                    seen |= bit
                }
                switch bit {
                case 1 where !isNull:
                    guard sub.peek() == UInt8(ascii: "\"") else { throw wrongTypeStatic("\(path()).type", "a string", &sub) }
                    type = sub.name(try sub.scanString(), names)
                case 2 where !isNull:
                    if sub.peek() == UInt8(ascii: "\"") {
                        id = sub.name(try sub.scanString(), names)
                    } else {
                        let start = sub.i
                        let b = sub.peek()
                        guard b == UInt8(ascii: "-") || (b &- UInt8(ascii: "0")) < 10 else {
                            throw wrongTypeStatic("\(path()).id", "a string or an integer", &sub)
                        }
                        guard try sub.scanNumber() else {
                            throw .wrongType(field: "\(path()).id", expected: "a string or an integer",
                                             found: "a number with a fraction or exponent")
                        }
                        id = names.string(UnsafeRawBufferPointer(rebasing: sub.bytes[start..<sub.i]))
                    }
                case 4 where !isNull:
                    sub.depth += 1
                    data = try sub.parseValue()
                    sub.depth -= 1
                default:
                    try sub.skipValue()  // null, or a field a route value does not keep
                }
                sub.skipWhitespace()
                if sub.peek() == UInt8(ascii: ",") { sub.i += 1; continue }
                // Checked here too: a route under `value` is decoded during the scan.
                guard sub.peek() == UInt8(ascii: "}") else { throw sub.unexpected("',' or '}'") }
                sub.i += 1
                break
            }
        }
        guard let type else { throw .missingField(field: "\(path()).type") }
        guard !type.isEmpty else { throw .invalidValue(field: "\(path()).type", reason: "must not be empty") }
        return RouteValue(type: type, id: id, data: data)
    }
}
