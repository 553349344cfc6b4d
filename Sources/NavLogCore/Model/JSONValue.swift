/// A JSON value as navlog keeps it: free-form payloads (`meta`, route `data`,
/// unknown fields) are preserved exactly, numbers as their literal text.
///
/// Objects are written with their keys sorted by UTF-8 bytes (code point
/// order) at every depth; see ``CanonicalWriter``.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// A number, kept as the literal it was written as (`1.50` stays `1.50`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// A short name of this value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension JSONValue {
    /// The value's canonical JSON text (sorted keys, no whitespace).
    public var canonicalText: String {
        var writer = CanonicalWriter()
        writer.write(self)
        return writer.string
    }
}
