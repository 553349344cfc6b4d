import NavLogCore

/// Reads a segment store (schemas/segment-store.md §5.3, §7, §9): its
/// sessions, one session's events found by id, and the state at a position
/// from the session's checkpoints. Takes no lock; sees the commits that were
/// committed when it was opened (a torn tail is ignored).
///
/// ```swift
/// let reader = try SegmentReader(store: SegmentStore.open(at: "events"))
/// let lines = try reader.lines(of: "s-1")          // canonical lines, seq order
/// let state = try reader.state(of: "s-1", atPosition: 5000)
/// ```
public final class SegmentReader {
    /// One stored session, as ``sessions()`` lists it.
    public struct SessionSummary: Hashable, Sendable {
        public var id: String
        public var events: Int
        public var firstSeq: Int
        public var lastSeq: Int
        /// `t` of its first and last events (milliseconds).
        public var firstT: Int64
        public var lastT: Int64
    }

    /// A session's state after a position, and the position reached
    /// (smaller than asked when the session has fewer events).
    public struct PositionedState: Hashable, Sendable {
        public var state: NavigationState
        public var position: Int
    }

    let catalog: SegmentCatalog

    public init(store: SegmentStore) throws(SegmentStoreError) {
        catalog = try SegmentCatalog(store: store)
    }

    /// Segments and commits visible to this reader.
    public var segmentCount: Int { catalog.segments.count }
    public var commitCount: Int { catalog.commits.count }
    /// Data frames decompressed so far.
    public var blocksDecompressed: Int { catalog.blocksDecompressed }
    /// Bytes opening read from the segment files to find their commits:
    /// for a sealed segment its footer and commit indexes, for the open one
    /// its commit indexes linked back from the durable point (or every frame
    /// header, when it is walked), schemas/segment-store.md §9.
    public var bytesReadOnOpen: Int { catalog.bytesReadFindingCommits }
    /// What the walk stopped at: a torn tail after the durable point (a
    /// reader opens a damaged store not at all, schemas/segment-store.md §9.1).
    public var problems: [SegmentDamage] { catalog.problems }

    /// Calls `body` with each stored line (without `\n`) of session `id`, in seq order, until it returns `false`.
    public func forEachLine(of id: String, _ body: (UnsafeRawBufferPointer) throws(SegmentStoreError) -> Bool) throws(SegmentStoreError) {
        try catalog.forEachLine(of: SessionKey(id)) { line, _ throws(SegmentStoreError) in try body(line) }
    }

    /// The stored lines of session `id` (without `\n`), in seq order; empty when it is not stored.
    public func lines(of id: String) throws(SegmentStoreError) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        try forEachLine(of: id) { line in
            lines.append(Array(line))
            return true
        }
        return lines
    }

    /// The state of session `id` after its first `position` events: its
    /// last checkpoint at or before the position, then at most K folded
    /// events (§7). `nil` when the session is not stored.
    public func state(of id: String, atPosition position: Int) throws(SegmentStoreError) -> PositionedState? {
        try catalog.replay(SessionKey(id), toPosition: position).map { PositionedState(state: $0.state.state, position: $0.position) }
    }

    /// Every stored session, in the order of its first event in the store.
    /// Reads every block of the store.
    public func sessions() throws(SegmentStoreError) -> [SessionSummary] {
        var order: [SessionID] = []
        var table: [SessionID: SessionSummary] = [:]
        var fold = SessionFold()
        for ref in catalog.commits {
            for block in catalog.index(ref).blocks.indices {
                let bytes = try catalog.blockContent(ref, block: block)
                var start = 0
                while start < bytes.count {
                    let end = lineEnd(in: bytes, from: start)
                    defer { start = end + 1 }
                    guard let facts = fold.facts(UnsafeRawBufferPointer(rebasing: bytes[start..<end])) else { continue }
                    let id = SessionID(facts.session)
                    if var known = table[id] {
                        known.events += 1
                        known.lastSeq = facts.seq
                        known.lastT = facts.t
                        table[id] = known
                    } else {
                        order.append(id)
                        table[id] = SessionSummary(id: facts.session, events: 1, firstSeq: facts.seq, lastSeq: facts.seq,
                                                   firstT: facts.t, lastT: facts.t)
                    }
                }
            }
        }
        return order.compactMap { table[$0] }
    }
}
