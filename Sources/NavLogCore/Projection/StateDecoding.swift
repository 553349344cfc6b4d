/// Typed readers for state JSON (a `state.restore` scene object, a
/// checkpoint). Each takes the field's path lazily, so that the path string
/// is only built for an error: `state.stacks.home[0].type`.
enum StateDecoding {
    /// The value, or `nil` when it is absent or `null` (docs/events.md: `null`
    /// in an optional field means absent).
    @inline(__always)
    static func present(_ value: JSONValue?) -> JSONValue? {
        if case .null? = value { return nil }
        return value
    }

    static func object(_ value: JSONValue, _ path: () -> String) throws(EventParseError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw .wrongType(field: path(), expected: "an object", found: value.typeName)
        }
        return members
    }

    static func string(_ value: JSONValue, _ path: () -> String) throws(EventParseError) -> String {
        guard case .string(let s) = value else {
            throw .wrongType(field: path(), expected: "a string", found: value.typeName)
        }
        return s
    }

    static func strings(_ value: JSONValue, _ path: () -> String) throws(EventParseError) -> [String] {
        guard case .array(let items) = value else {
            throw .wrongType(field: path(), expected: "an array of strings", found: value.typeName)
        }
        var out: [String] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            guard case .string(let s) = item else {
                throw .wrongType(field: "\(path())[\(i)]", expected: "a string", found: item.typeName)
            }
            out.append(s)
        }
        return out
    }

    /// `tabs.define`'s `sections` (and a state's `tabs.sections`): an array
    /// of `{"name": string, "tabs": [string]}`, both required; other
    /// members of a section are dropped (as a route value's are).
    static func sections(_ value: JSONValue, _ path: () -> String) throws(EventParseError) -> [TabSection] {
        guard case .array(let items) = value else {
            throw .wrongType(field: path(), expected: "an array of sections", found: value.typeName)
        }
        var out: [TabSection] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            let members = try object(item) { "\(path())[\(i)]" }
            guard let nameValue = present(members["name"]) else { throw .missingField(field: "\(path())[\(i)].name") }
            guard let tabsValue = present(members["tabs"]) else { throw .missingField(field: "\(path())[\(i)].tabs") }
            let name = try string(nameValue) { "\(path())[\(i)].name" }
            out.append(TabSection(name: name, tabs: try strings(tabsValue) { "\(path())[\(i)].tabs" }))
        }
        return out
    }

    /// A JSON integer literal (`3.0`, `"3"` and `true` are wrong types).
    static func integer(_ value: JSONValue, _ path: () -> String) throws(EventParseError) -> Int {
        guard case .number(let literal) = value else {
            throw .wrongType(field: path(), expected: "an integer", found: value.typeName)
        }
        guard isIntegerLiteral(literal) else {
            throw .wrongType(field: path(), expected: "an integer", found: "a number with a fraction or exponent")
        }
        guard let n = Int(literal) else { throw .invalidValue(field: path(), reason: "integer out of range") }
        return n
    }

    static func enumeration<E: RawRepresentable & CaseIterable>(
        _ value: JSONValue, _ path: () -> String
    ) throws(EventParseError) -> E where E.RawValue == String {
        let s = try string(value, path)
        guard let e = E(rawValue: s) else {
            let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
            throw .invalidValue(field: path(), reason: "\"\(s.prefix(64))\" is not one of \(allowed)")
        }
        return e
    }

    /// Whether a number literal is `-?[0-9]+`.
    static func isIntegerLiteral(_ literal: String) -> Bool {
        var utf8 = literal.utf8[...]
        if utf8.first == UInt8(ascii: "-") { utf8 = utf8.dropFirst() }
        return !utf8.isEmpty && utf8.allSatisfy { $0 &- UInt8(ascii: "0") < 10 }
    }

    /// A route value: an object with a non-empty string `type`, an optional
    /// `id` (string, or integer literal → its decimal text) and optional
    /// free-form `data`; anything else in it is dropped.
    static func route(_ value: JSONValue, _ path: () -> String) throws(EventParseError) -> RouteValue {
        guard case .object(let members) = value else {
            throw .wrongType(field: path(), expected: "a route value object", found: value.typeName)
        }
        guard let typeValue = present(members["type"]) else { throw .missingField(field: "\(path()).type") }
        let type = try string(typeValue) { "\(path()).type" }
        guard !type.isEmpty else { throw .invalidValue(field: "\(path()).type", reason: "must not be empty") }
        var id: String? = nil
        switch present(members["id"]) {
        case nil: break
        case .string(let s)?: id = s
        case .number(let literal)? where isIntegerLiteral(literal): id = literal
        case .number?:
            throw .wrongType(field: "\(path()).id", expected: "a string or an integer",
                             found: "a number with a fraction or exponent")
        case let other?:
            throw .wrongType(field: "\(path()).id", expected: "a string or an integer", found: other.typeName)
        }
        return RouteValue(type: type, id: id, data: present(members["data"]))
    }

    /// An array of route values.
    static func routes(_ value: JSONValue, _ path: () -> String) throws(EventParseError) -> [RouteValue] {
        guard case .array(let items) = value else {
            throw .wrongType(field: path(), expected: "an array of route values", found: value.typeName)
        }
        var out: [RouteValue] = []
        out.reserveCapacity(items.count)
        for (i, item) in items.enumerated() {
            out.append(try route(item) { "\(path())[\(i)]" })
        }
        return out
    }
}
