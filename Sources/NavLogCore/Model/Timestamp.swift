/// An instant, in whole milliseconds since 1970-01-01T00:00:00Z.
///
/// navlog truncates every input time to whole milliseconds and compares only
/// the truncated value (docs/events.md). The printed form is always UTC with
/// three fraction digits: `2026-11-20T10:00:05.120Z`.
public struct Timestamp: Hashable, Comparable, Sendable {
    /// Milliseconds since the Unix epoch (negative before 1970).
    public var milliseconds: Int64

    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.milliseconds < b.milliseconds }
}
