/// Counts over many sessions that can be taken on several threads: each
/// thread adds its sessions to a tally of its own, and the tallies of
/// disjoint sets of sessions ``merge(_:)`` into the tally of their union.
///
/// ```swift
/// var tally = ScreenPathTally(mode: .transitions)
/// for session in sessions { tally.add(session) }   // SessionOccurrences
/// ```
public protocol SessionTally: Sendable {
    /// Whether the tally looks at marks and deep links, not only screen views.
    static var needsMarks: Bool { get }
    /// Whether ``add(projected:)`` reads sessions' `session.start` events
    /// (``ProjectedSession/sessionStart``): when not, the projection is
    /// loaded without parsing them.
    var readsSessionStarts: Bool { get }
    /// Counts one complete session.
    mutating func add(_ session: SessionOccurrences)
    /// Counts one complete session read from a store's screen projection
    /// (by default as its ``SessionOccurrences``); the same count as ``add(_:)``.
    mutating func add(projected session: ProjectedSession)
    /// Adds another tally's sessions (none of them in this one).
    mutating func merge(_ other: Self)
}

extension SessionTally {
    public var readsSessionStarts: Bool { true }
}

extension ScreenPathTally: SessionTally {
    public static var needsMarks: Bool { false }
    public var readsSessionStarts: Bool { false }

    public mutating func add(_ session: SessionOccurrences) { add(session.occurrences) }
}
