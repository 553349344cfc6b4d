/// SwiftUI's `NavigationPath.CodableRepresentation` ↔ navlog route values
/// (schemas/imports.md, "swiftui-path").
///
/// The representation is a flat JSON array of strings in pairs, top of the
/// stack first: `[tag_n, value_n, …, tag_1, value_1]`. A tag is a type name,
/// module-qualified (`"MyApp.Recipe"`) or mangled (`"Si"`, `"5MyApp6RecipeV"`);
/// a value is a string holding the element's own JSON encoding.
///
/// ```swift
/// let path = try SwiftUIPathCodec.decode(#"["Swift.Int","42","MyApp.Recipe","{\"id\":7}"]"#)
/// // [Recipe/7, Int/42], bottom first
/// SwiftUIPathCodec.encode(path)   // the same array back
/// ```
///
/// A decoded value is `{"type": short name, "id": …, "data": {"swiftType": tag, "value": decoded}}`.
public enum SwiftUIPathCodec {
    /// The key in a route value's `data` that keeps the tag as written.
    public static let tagKey = "swiftType"
    /// The key in a route value's `data` that keeps the decoded element.
    public static let valueKey = "value"

    /// Decodes a representation given as JSON text; the path comes out bottom first.
    public static func decode(_ text: String) throws(EventParseError) -> [RouteValue] {
        try decode(try JSONValue.parse(text))
    }

    /// Decodes a representation; the path comes out bottom first.
    ///
    /// - Throws: ``EventParseError`` naming the array index at fault: not an
    ///   array, an odd count, a tag or value that is not a string, an empty
    ///   tag, a value that is not JSON.
    public static func decode(_ json: JSONValue) throws(EventParseError) -> [RouteValue] {
        guard case .array(let items) = json else {
            throw .wrongType(field: "(top level)", expected: "array of strings", found: json.typeName)
        }
        guard items.count % 2 == 0 else {
            throw .invalidValue(field: "(top level)", reason: "\(items.count) strings, expected tag/value pairs (an even count)")
        }
        var path: [RouteValue] = []
        path.reserveCapacity(items.count / 2)
        var k = items.count - 2
        while k >= 0 {
            guard case .string(let tag) = items[k] else {
                throw .wrongType(field: "[\(k)]", expected: "string (a type tag)", found: items[k].typeName)
            }
            guard case .string(let encoded) = items[k + 1] else {
                throw .wrongType(field: "[\(k + 1)]", expected: "string (an element's JSON)", found: items[k + 1].typeName)
            }
            guard !tag.isEmpty else { throw .invalidValue(field: "[\(k)]", reason: "empty type tag") }
            let value: JSONValue
            do { value = try JSONValue.parse(encoded) } catch {
                throw .invalidValue(field: "[\(k + 1)]", reason: "not JSON (\(error))")
            }
            path.append(RouteValue(
                type: shortName(of: tag), id: identity(of: value),
                data: .object([tagKey: .string(tag), valueKey: value])))
            k -= 2
        }
        return path
    }

    /// Encodes a path (bottom first) as the representation (top first).
    ///
    /// A value imported from SwiftUI gets its tag and element back exactly.
    /// Any other value is written with its `type` as the tag and, as the
    /// element, its `data` object with `"id"` added when it has an id the
    /// object lacks; `{"id": id, "data": data}` for an id with non-object data;
    /// `{"id": id}` for an id alone; else its `data`, or `{}`. So its screen
    /// name survives the round trip.
    public static func encode(_ path: [RouteValue]) -> JSONValue {
        var items: [JSONValue] = []
        items.reserveCapacity(path.count * 2)
        for value in path.reversed() {
            let (tag, element) = tagAndElement(of: value)
            items.append(.string(tag))
            items.append(.string(element.canonicalText))
        }
        return .array(items)
    }

    static func tagAndElement(of value: RouteValue) -> (String, JSONValue) {
        if case .object(let data)? = value.data, data.count == 2,
           case .string(let tag)? = data[tagKey], let element = data[valueKey] {
            return (tag, element)
        }
        switch (value.id, value.data) {
        case (let id?, .object(var members)?) where members["id"] == nil:
            members["id"] = .string(id)
            return (value.type, .object(members))
        case (let id?, let data?) where value.data?.objectValue == nil:
            return (value.type, .object(["id": .string(id), "data": data]))
        case (_, let data?): return (value.type, data)
        case (let id?, nil): return (value.type, .object(["id": .string(id)]))
        case (nil, nil): return (value.type, .object([:]))
        }
    }

    /// The identity of an element: its `id` field (a string or number), or
    /// the element itself when it is a string, number or boolean.
    static func identity(of value: JSONValue) -> String? {
        switch value {
        case .string(let s): return s
        case .number(let n): return n
        case .bool(let b): return b ? "true" : "false"
        case .object(let members):
            switch members["id"] {
            case .string(let s)?: return s
            case .number(let n)?: return n
            default: return nil
            }
        case .null, .array: return nil
        }
    }

    /// Swift's mangled names of the standard types SwiftUI paths hold most.
    static let standardMangled: [String: String] = [
        "Si": "Int", "Su": "UInt", "SS": "String", "Sb": "Bool", "Sd": "Double", "Sf": "Float",
        "s4Int8V": "Int8", "s5Int16V": "Int16", "s5Int32V": "Int32", "s5Int64V": "Int64",
        "s5UInt8V": "UInt8", "s6UInt16V": "UInt16", "s6UInt32V": "UInt32", "s6UInt64V": "UInt64",
        "10Foundation4UUIDV": "UUID", "10Foundation4DateV": "Date", "10Foundation3URLV": "URL",
    ]

    /// The short type name of a tag: the last component of a qualified name
    /// (`MyApp.Recipe` → `Recipe`), the type of a mangled nominal name
    /// (`5MyApp6RecipeV` → `Recipe`, `Si` → `Int`), else the tag itself.
    public static func shortName(of tag: String) -> String {
        if let known = standardMangled[tag] { return known }
        if let mangled = lastMangledIdentifier(tag) { return mangled }
        if let dot = tag.lastIndex(of: "."), tag.index(after: dot) < tag.endIndex,
           !tag.contains("<") {
            return String(tag[tag.index(after: dot)...])
        }
        return tag
    }

    /// The last identifier of a mangled nominal type name
    /// (`(<length><identifier>)+` then `V`, `C` or `O`), or `nil`.
    static func lastMangledIdentifier(_ tag: String) -> String? {
        let bytes = Array(tag.utf8)
        guard let kind = bytes.last, kind == UInt8(ascii: "V") || kind == UInt8(ascii: "C") || kind == UInt8(ascii: "O") else { return nil }
        var i = 0
        var last: String?
        // An optional leading `s` means the standard library module.
        if bytes.first == UInt8(ascii: "s") { i = 1 }
        while i < bytes.count - 1 {
            var length = 0
            let start = i
            while i < bytes.count - 1, bytes[i] >= 0x30, bytes[i] <= 0x39 {
                length = length * 10 + Int(bytes[i] - 0x30)
                i += 1
                if length > bytes.count { return nil }
            }
            guard i > start, length > 0, i + length <= bytes.count - 1 else { return nil }
            last = String(decoding: bytes[i..<(i + length)], as: UTF8.self)
            i += length
        }
        return i == bytes.count - 1 ? last : nil
    }
}
