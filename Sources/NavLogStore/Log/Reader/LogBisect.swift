import NavLogCore

/// `navlog bisect` on two logs: the first position after which their states
/// differ (docs/state.md), reading the block index instead of replaying both
/// logs where it can.
///
/// ```swift
/// let found = try LogBisect.search(try LogReader(path: "a.navlog"), try LogReader(path: "b.navlog"))
/// found.search.position            // when found.search.diverged
/// ```
///
/// 1. **Chain.** Where both logs' blocks line up (block i of each ends at the
///    same event count), ``ChainSearch`` over the entries' state-chain hashes
///    finds the last block L whose chains agree: the states agree at every
///    block end up to L (up to hash collisions). No block is decompressed.
/// 2. **Certify.** The chain says nothing about the positions *inside* the
///    blocks (states may part and meet again between two block ends), nor
///    anything when the two sessions' ids or times differ (the chain hashes
///    the whole state). So the prefix skipped is only blocks 0…L whose
///    content is identical too — same event count, size and content checksum
///    (XXH32) in the entries: the same bytes give the same state at every
///    position. Still no block decompressed.
/// 3. **Exact.** From the last checkpoint before the first block not
///    skipped, both logs are folded forward (at most K events to reach it),
///    then stepped event by event with ``DivergenceSearch`` until their
///    states differ or a log ends.
///
/// Two re-runs of one session that part near the end thus cost O(log n)
/// entry comparisons, one checkpoint and a couple of blocks each. When the
/// block boundaries differ (different writer settings) or the contents
/// differ from the start (different session ids or times), step 3 starts at
/// the beginning: a fold of both logs, still exact.
public enum LogBisect {
    /// What a search found, and what it cost.
    public struct Outcome {
        /// The stepping state at the end: `search.diverged`, `search.position`,
        /// the states and events there, and the events before.
        public var search: DivergenceSearch
        /// Events skipped by the index (steps 1–2): states equal at every position ≤ it.
        public var skippedEvents: Int
        /// The last block whose chain hashes agree in both logs (step 1), if any.
        public var chainAgreesThroughBlock: Int?
        /// Blocks decompressed from A and from B (checkpoints not counted).
        public var blocksDecompressed: (a: Int, b: Int)
    }

    /// Searches two logs; `context` earlier events of each are kept.
    ///
    /// - Complexity: O(log blocks) entry comparisons for the chain, O(blocks)
    ///   entry comparisons to certify, then at most K + the events from there
    ///   to the divergence folded on each side.
    public static func search(_ a: LogReader, _ b: LogReader, context: Int = 5) throws(FileError) -> Outcome {
        let startA = a.blocksDecompressed, startB = b.blocksDecompressed
        let sessionA = try a.session() ?? "", sessionB = try b.session() ?? ""
        // 1. Blocks line up while block i of each ends at the same event count;
        // of those, the leading ones whose chains agree: blocks 0..<chainEnd.
        let aligned = ChainSearch.sharedPositions(blockEnds(a), blockEnds(b), untilApart: true).count
        let chainEnd = ChainSearch.agreeingPrefix(count: aligned) { a.blocks[$0].stateHash == b.blocks[$0].stateHash }
        // 2. Of those, the leading blocks with identical content.
        var same = 0
        var skipped = 0
        while same < chainEnd, identical(a.blocks[same], b.blocks[same]) {
            skipped += a.blocks[same].eventCount
            same += 1
        }
        // 3. Fold to the start of the last identical block (for context), then step.
        var search: DivergenceSearch
        var fromSeqA = 1, fromSeqB = 1
        var sameEventsToReplay = 0
        if same > 0 {
            let last = same - 1
            let before = last > 0 ? a.blocks[last - 1].lastSeq : 0
            let beforeB = last > 0 ? b.blocks[last - 1].lastSeq : 0
            search = DivergenceSearch(stateA: try a.state(afterSeq: before), stateB: try b.state(afterSeq: beforeB),
                                      position: skipped - a.blocks[last].eventCount, context: context)
            fromSeqA = a.blocks[last].firstSeq
            fromSeqB = b.blocks[last].firstSeq
            sameEventsToReplay = a.blocks[last].eventCount
        } else {
            search = DivergenceSearch(sessions: (sessionA, sessionB), context: context)
        }
        let cursorA = a.cursor(fromSeq: fromSeqA), cursorB = b.cursor(fromSeq: fromSeqB)
        try search.run(same: sameEventsToReplay) { () throws(FileError) in (try cursorA.next(), try cursorB.next()) }
        return Outcome(search: search, skippedEvents: skipped,
                       chainAgreesThroughBlock: chainEnd > 0 ? chainEnd - 1 : nil,
                       blocksDecompressed: (a.blocksDecompressed - startA, b.blocksDecompressed - startB))
    }

    /// The event count at each block's end.
    private static func blockEnds(_ log: LogReader) -> [Int] {
        var total = 0
        return log.blocks.map { total += $0.eventCount; return total }
    }

    /// Whether two entries describe the same bytes (up to XXH32 collisions).
    static func identical(_ x: BlockEntry, _ y: BlockEntry) -> Bool {
        x.eventCount == y.eventCount && x.contentSize == y.contentSize && x.contentChecksum == y.contentChecksum
            && x.firstSeq == y.firstSeq && x.lastSeq == y.lastSeq
    }
}
