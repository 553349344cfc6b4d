/// `navlog import react-navigation`: NDJSON of `{t, session, state}`
/// snapshots, where `state` is a React Navigation `NavigationState`, into
/// the events that lead from each snapshot of a session to the next
/// (schemas/imports.md, "react-navigation").
///
/// `t` is an RFC 3339 string or integer Unix milliseconds; an optional
/// `scene` string names the scene. The first snapshot of a session is read
/// as a change from the empty scene.
///
/// - Complexity: O(size of the snapshot) per record; memory holds the last
///   ``ReactNavigationScene`` of each session seen (per scene).
public struct ReactNavigationConverter: ImportConverter {
    private struct Key: Hashable { var session: String; var scene: String }
    private var last: [Key: ReactNavigationScene] = [:]

    public init() {}

    public mutating func convert(_ record: UnsafeRawBufferPointer, record number: Int, into events: inout [Event]) throws(EventParseError) {
        let f = try ImportFields(try JSONValue.parse(record), path: "")
        let session = try f.requiredString("session")
        guard !session.isEmpty else { throw .invalidValue(field: "session", reason: "must not be empty") }
        let t = try Self.timestamp(f)
        let scene = try f.string("scene")
        let next = try ReactNavigationScene(state: try f.required("state"))
        let key = Key(session: session, scene: scene ?? "main")
        for kind in next.events(from: last[key] ?? ReactNavigationScene()) {
            events.append(Event(session: session, t: t, scene: scene, kind: kind))
        }
        last[key] = next
    }

    public mutating func finish(into events: inout [Event]) { last.removeAll() }

    static func timestamp(_ f: ImportFields) throws(EventParseError) -> Timestamp {
        switch try f.required("t") {
        case .string(let s):
            guard let t = Timestamp(rfc3339: s) else {
                throw .invalidValue(field: "t", reason: "not an RFC 3339 timestamp: \"\(s)\"")
            }
            return t
        case .number(let n):
            guard let ms = Int64(n), let t = Timestamp(checkedMilliseconds: ms) else {
                throw .invalidValue(field: "t", reason: "\(n) is not integer Unix milliseconds within years 0000–9999")
            }
            return t
        case let other:
            throw .wrongType(field: "t", expected: "RFC 3339 string or integer milliseconds", found: other.typeName)
        }
    }
}
