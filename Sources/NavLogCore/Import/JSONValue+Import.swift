/// Reading foreign JSON records (schemas/imports.md): one parser for all of
/// navlog (``JSONReader``), plus the lookups the importers share.
extension JSONValue {
    /// Parses one JSON text given as bytes, with the limits of event lines
    /// (1 MiB, 64 levels, strict UTF-8, no duplicate keys).
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(EventParseError) -> JSONValue {
        guard bytes.count <= EventParser.maxLineBytes else {
            throw .lineTooLong(bytes: bytes.count, limit: EventParser.maxLineBytes)
        }
        var reader = JSONReader(bytes)
        let value = try reader.parseValue()
        reader.skipWhitespace()
        guard reader.atEnd else { throw reader.unexpected("end of input") }
        return value
    }

    /// The members of an object, `nil` for any other value.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text of a string, `nil` for any other value.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A 64-bit integer written as a JSON integer literal or, as BigQuery
    /// writes INT64 columns, as a string of decimal digits.
    var int64Value: Int64? {
        switch self {
        case .number(let text), .string(let text):
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 || $0 == 0x2D }) else { return nil }
            return Int64(text)
        default:
            return nil
        }
    }
}

/// Field access for decoding a foreign record, with errors that name the field.
struct ImportFields {
    let members: [String: JSONValue]
    /// The field path so far (`event_params[2].value`), for error messages.
    let path: String

    init(_ value: JSONValue, path: String) throws(EventParseError) {
        guard case .object(let members) = value else {
            if path.isEmpty { throw .notAnObject(found: value.typeName) }
            throw .wrongType(field: path, expected: "object", found: value.typeName)
        }
        self.members = members
        self.path = path
    }

    func name(_ key: String) -> String { path.isEmpty ? key : path + "." + key }

    /// The value, `nil` when absent or `null`.
    subscript(key: String) -> JSONValue? {
        guard let v = members[key], v != .null else { return nil }
        return v
    }

    func required(_ key: String) throws(EventParseError) -> JSONValue {
        guard let v = self[key] else { throw .missingField(field: name(key)) }
        return v
    }

    func string(_ key: String) throws(EventParseError) -> String? {
        guard let v = self[key] else { return nil }
        guard case .string(let s) = v else { throw .wrongType(field: name(key), expected: "string", found: v.typeName) }
        return s
    }

    func requiredString(_ key: String) throws(EventParseError) -> String {
        guard let s = try string(key) else { throw .missingField(field: name(key)) }
        return s
    }

    func object(_ key: String) throws(EventParseError) -> ImportFields? {
        guard let v = self[key] else { return nil }
        return try ImportFields(v, path: name(key))
    }

    func array(_ key: String) throws(EventParseError) -> [JSONValue]? {
        guard let v = self[key] else { return nil }
        guard case .array(let items) = v else { throw .wrongType(field: name(key), expected: "array", found: v.typeName) }
        return items
    }

    /// A JSON integer literal.
    func integer(_ key: String) throws(EventParseError) -> Int? {
        guard let v = self[key] else { return nil }
        guard case .number(let text) = v, let n = Int(text) else {
            throw .wrongType(field: name(key), expected: "integer", found: v.typeName)
        }
        return n
    }

    /// An INT64 as BigQuery exports it: a JSON integer or a decimal string.
    func int64(_ key: String) throws(EventParseError) -> Int64? {
        guard let v = self[key] else { return nil }
        guard let n = v.int64Value else {
            throw .wrongType(field: name(key), expected: "integer (or a string of digits)", found: v.typeName)
        }
        return n
    }
}

extension Timestamp {
    /// The instant `microseconds` after the Unix epoch, truncated to whole
    /// milliseconds; `nil` outside years 0000–9999.
    init?(microseconds: Int64) {
        let (q, r) = microseconds.quotientAndRemainder(dividingBy: 1000)
        self.init(checkedMilliseconds: r < 0 ? q - 1 : q)
    }

    /// `nil` outside years 0000–9999.
    init?(checkedMilliseconds ms: Int64) {
        guard ms >= Timestamp.minMilliseconds, ms <= Timestamp.maxMilliseconds else { return nil }
        self.init(milliseconds: ms)
    }
}
