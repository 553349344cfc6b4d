import NavLogCore

/// How many sessions a listing's filter keeps, and their events: what
/// `navlog sessions STORE --count` prints and `GET /v1/session-count`
/// answers, `{"events":N,"sessions":N}`.
public struct SessionCount: Hashable, Sendable {
    public private(set) var sessions = 0
    public private(set) var events = 0

    public init() {}

    /// Counts one listed session.
    public mutating func add(_ summary: SessionSummary) {
        sessions += 1
        events += summary.events
    }

    public var jsonText: String {
        JSONValue.object(["events": .number(String(events)), "sessions": .number(String(sessions))]).canonicalText
    }
}
