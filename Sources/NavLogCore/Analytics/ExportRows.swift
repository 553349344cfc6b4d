/// Turns events into output rows (CSV, NDJSON…); one per source read.
public protocol ExportRows: Sendable {
    /// Appends the rows of one event (and the screen view it emitted, if any) to `out`.
    mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8])
    /// Whether the rows of a whole session can be written from what
    /// ``SessionOccurrences`` records (with marks): then a store's screen
    /// projection is read instead of its events (``write(_:to:)``).
    static var readsOccurrences: Bool { get }
    /// Appends the rows of one whole session from its occurrences; called only when ``readsOccurrences``.
    mutating func write(_ session: SessionOccurrences, to out: inout [UInt8])
}

extension ExportRows {
    public static var readsOccurrences: Bool { false }

    public mutating func write(_ session: SessionOccurrences, to out: inout [UInt8]) {
        preconditionFailure("\(Self.self) writes rows from events only")
    }
}
