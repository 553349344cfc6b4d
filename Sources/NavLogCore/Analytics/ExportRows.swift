/// Turns events into output rows (CSV, NDJSON…); one per source read.
public protocol ExportRows: Sendable {
    /// Appends the rows of one event (and the screen view it emitted, if any) to `out`.
    mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8])
}
