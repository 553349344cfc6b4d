/// Why one NDJSON line is not an acceptable event (docs/events.md).
///
/// Each case names what was wrong and, where it applies, which field and the
/// byte offset within the line. ``description`` is one line, fit for
/// `file:line: <description>`.
public enum EventParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes are not well-formed JSON; `offset` is 0-based within the line.
    case invalidJSON(offset: Int, reason: String)
    /// The bytes are not valid UTF-8.
    case invalidUTF8(offset: Int)
    /// The line is longer than ``EventParser/maxLineBytes``.
    case lineTooLong(bytes: Int, limit: Int)
    /// Arrays and objects are nested deeper than ``EventParser/maxDepth``.
    case nestedTooDeep(offset: Int, limit: Int)
    /// The line is JSON but not an object.
    case notAnObject(found: String)
    /// The same key appears twice in one object.
    case duplicateKey(field: String)
    /// A required field is absent or `null`.
    case missingField(field: String)
    /// A field has the wrong JSON type.
    case wrongType(field: String, expected: String, found: String)
    /// A field has the right type but an unacceptable value.
    case invalidValue(field: String, reason: String)
    /// `seq` does not strictly increase within the session.
    case seqNotIncreasing(seq: Int, previous: Int)
    /// A whole file read as one document is not what it should be
    /// (`expected`, e.g. "a NavigationPath.CodableRepresentation"): too
    /// long, not JSON, or JSON of another shape.
    case notADocument(expected: String, reason: String)

    public var description: String {
        switch self {
        case .invalidJSON(let offset, let reason):
            "invalid JSON at byte \(offset): \(reason)"
        case .invalidUTF8(let offset):
            "invalid UTF-8 at byte \(offset)"
        case .lineTooLong(let bytes, let limit):
            "line is \(bytes) bytes, over the limit of \(limit)"
        case .nestedTooDeep(let offset, let limit):
            "JSON nested deeper than \(limit) levels at byte \(offset)"
        case .notAnObject(let found):
            "expected a JSON object, found \(found)"
        case .duplicateKey(let field):
            "duplicate key \"\(field)\""
        case .missingField(let field):
            "missing required field \"\(field)\""
        case .wrongType(let field, let expected, let found):
            "field \"\(field)\": expected \(expected), found \(found)"
        case .invalidValue(let field, let reason):
            "field \"\(field)\": \(reason)"
        case .seqNotIncreasing(let seq, let previous):
            "field \"seq\": \(seq) does not increase (previous accepted seq is \(previous))"
        case .notADocument(let expected, let reason):
            "not \(expected): \(reason)"
        }
    }
}
