import NavLogCore

/// `navlog bisect` on two sessions of segment stores (one store or two):
/// the first position after which their states differ (docs/state.md),
/// found through the sessions' checkpoint chains (schemas/segment-store.md §7).
///
/// 1. **Chain.** The positions at which both sessions have a checkpoint are
///    searched (``ChainSearch``) for the last one, P, whose chain hashes agree: the
///    scenes agree at every position up to P (the chain leaves out ids,
///    seqs, times, causes and meta). O(log n) checkpoints are read.
/// 2. **Exact.** From the checkpoint before P (for the context lines), both
///    sides are replayed to P without comparing, then stepped event by event
///    with ``DivergenceSearch`` until their states differ or both end.
///
/// Two sessions that part near the end thus cost O(log n) checkpoints and
/// the blocks of about K events on each side (plus the O(log blocks) ones
/// that find where a checkpoint's events start in its commit).
public enum StoredBisect {
    /// What a search found, and what it cost.
    public struct Outcome {
        public var search: DivergenceSearch
        /// Positions whose equality the chains settle (the replay from the checkpoint before P starts after them).
        public var skippedEvents: Int
        /// Blocks decompressed from A and from B (checkpoints not counted; the
        /// two sides may share a store's reader).
        public var blocksDecompressed: (a: Int, b: Int)
        /// Checkpoints read from A and B together.
        public var checkpointsRead: Int
    }

    /// Searches two stored sessions; `context` earlier events of each are kept.
    public static func search(_ a: StoredSession, _ b: StoredSession, context: Int = 5) throws(SegmentStoreError) -> Outcome {
        let refsA = a.checkpointRefs(), refsB = b.checkpointRefs()
        let shared = ChainSearch.sharedPositions(refsA.map(\.ref.position), refsB.map(\.ref.position))
        var read = 0
        typealias Point = (commit: Int, SessionCheckpoint, NavigationState)
        var loaded: [Int: (Point, Point)] = [:]
        func load(_ s: Int) throws(SegmentStoreError) -> (Point, Point)? {
            if let known = loaded[s] { return known }
            read += 2
            guard let (ca, sa) = try a.checkpoint(refsA[shared[s].a]), let (cb, sb) = try b.checkpoint(refsB[shared[s].b]) else { return nil }
            let pair = ((refsA[shared[s].a].commit, ca, sa), (refsB[shared[s].b].commit, cb, sb))
            loaded[s] = pair
            return pair
        }
        // 1. The last shared checkpoint whose chains agree.
        let low = try ChainSearch.agreeingPrefix(count: shared.count) { (mid) throws(SegmentStoreError) in
            guard let (x, y) = try load(mid) else { return false }
            return x.1.chain == y.1.chain
        }
        // 2. Start one checkpoint earlier, replay to P without comparing, then step.
        var search: DivergenceSearch
        var cursorA: StoredEventCursor, cursorB: StoredEventCursor
        var same = 0
        let agreed = low - 1
        let start = agreed - 1
        if agreed >= 0, start >= 0, let (x, y) = try load(start), let (px, _) = try load(agreed) {
            search = DivergenceSearch(stateA: x.2, stateB: y.2, position: x.1.position, context: context)
            cursorA = StoredEventCursor(try SessionLineCursor(catalog: a.catalog, key: a.key, fromCommit: x.commit, afterSeq: x.1.seq))
            cursorB = StoredEventCursor(try SessionLineCursor(catalog: b.catalog, key: b.key, fromCommit: y.commit, afterSeq: y.1.seq))
            same = px.1.position - x.1.position
        } else {
            search = DivergenceSearch(sessions: (a.id, b.id), context: context)
            cursorA = try a.eventCursor()
            cursorB = try b.eventCursor()
            if agreed >= 0, let (px, _) = try load(agreed) { same = px.1.position }
        }
        let skipped = search.position + same
        try search.run(same: same) { () throws(SegmentStoreError) in (try cursorA.next(), try cursorB.next()) }
        return Outcome(search: search, skippedEvents: skipped,
                       blocksDecompressed: (cursorA.blocksRead, cursorB.blocksRead),
                       checkpointsRead: read)
    }
}
