/// The one rule that tells a torn tail from damage (schemas/format-layer.md
/// §3): a problem lying after the durable point is a torn tail (readers stop
/// before it, a writer sets it aside and cuts it); at or before it, damage
/// (reported; only `repair` moves it). The case is where the file's durable
/// point comes from.
enum TornTailRule {
    /// A segment of a store: bytes from this offset on lie after the durable
    /// point (a 2.1 store's `COMMITTED`; a 2.0 store keeps none, so it is the
    /// end of the last valid commit of the last segment); `nil`: the whole
    /// segment lies at or before it.
    case durableEnd(Int64?)
    /// A `.navlog`, which keeps none: its last valid unit plus the checked
    /// LZ4 blocks of an open frame, so only a frame cut short by the end of
    /// the file lies after it.
    case lastValidUnit

    /// Whether a problem at `offset` is a torn tail; `cutShort`: the walk met
    /// it as a frame cut short by the end of the file.
    func isTornTail(at offset: Int64, cutShort: Bool) -> Bool {
        switch self {
        case .durableEnd(let end): end.map { offset >= $0 } ?? false
        case .lastValidUnit: cutShort
        }
    }
}
