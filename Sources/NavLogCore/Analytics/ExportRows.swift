/// Turns events into output rows (CSV, NDJSON…); one per source read.
public protocol ExportRows: Sendable {
    /// Appends the rows of one event (and the screen view it emitted, if any) to `out`.
    mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8])
    /// Whether the rows of a whole session can be written from a store's
    /// screen projection (its screen views, marks, deep links, first event
    /// and first `session.start`): then the projection is read instead of
    /// the events (``write(projected:to:)``).
    static var readsProjection: Bool { get }
    /// Whether ``write(projected:to:)`` reads sessions' `session.start`
    /// events (``ProjectedSession/sessionStart``), and rows made from events
    /// their `app` and `device`: when not, the projection is loaded without
    /// parsing them, and NDJSON is read without those objects.
    var readsSessionStarts: Bool { get }
    /// Whether an event's rows depend on its own session's events alone
    /// (not on other sessions' or on the order of sessions), so that
    /// writers on several threads, each given whole sessions, can render
    /// rows that are then merged back in event order.
    static var rowsFollowSessions: Bool { get }
    /// Whether an event's rows read `state.restore`'s object as given
    /// (``EventKind/stateRestore(state:json:)``'s `json`), not only its scene.
    static var readsRestoredObjects: Bool { get }
    /// Appends the rows of one whole session read from a screen projection; called only when ``readsProjection``.
    mutating func write(projected session: ProjectedSession, to out: inout [UInt8])
}

extension ExportRows {
    public static var readsProjection: Bool { false }
    public var readsSessionStarts: Bool { true }
    public static var rowsFollowSessions: Bool { false }
    public static var readsRestoredObjects: Bool { true }

    public mutating func write(projected session: ProjectedSession, to out: inout [UInt8]) {
        preconditionFailure("\(Self.self) writes rows from events only")
    }
}
