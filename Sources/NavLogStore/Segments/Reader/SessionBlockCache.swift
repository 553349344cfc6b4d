import NavLogCore

/// Blocks of a store decompressed once and kept, each with the session
/// hash of every line, so that finding one session's lines in a block is a
/// binary search, not a scan (schemas/segment-store.md §8, "Duplicates and
/// conflicts"). The writer reads sessions back in about the order their
/// commits were written (a re-sent input is in the order it was stored), so
/// a block that holds hundreds of short sessions is decompressed about once
/// for all of them instead of once each. Bounded by ``budget`` bytes of
/// content; the oldest blocks are dropped first.
final class SessionBlockCache {
    /// One decompressed block: its lines' bytes, where each starts, and each one's session hash.
    final class Block {
        let bytes: [UInt8]
        /// Where line i starts and ends (its `\n`, or the end of the block).
        private let starts: [Int]
        private let ends: [Int]
        /// The XXH64 of line i's session id (0 when the line has none).
        private let hashes: [UInt64]
        /// Whether ``hashes`` never decreases (true of every block a writer made: §4).
        private let sorted: Bool

        init(_ content: UnsafeRawBufferPointer) {
            bytes = Array(content)
            var starts: [Int] = []
            var ends: [Int] = []
            var hashes: [UInt64] = []
            var fold: SessionFold?
            var sorted = true
            bytes.withUnsafeBytes { raw in
                var start = 0
                while start < raw.count {
                    let end = lineEnd(in: raw, from: start)
                    let line = UnsafeRawBufferPointer(rebasing: raw[start..<end])
                    let hash: UInt64
                    if let range = SessionSkim.sessionBytes(in: line) {
                        hash = XXHash64.hash(UnsafeRawBufferPointer(rebasing: line[range]))
                    } else {
                        // Not skimmed: the full parser's reading (rare; made once a block at most).
                        if fold == nil { fold = SessionFold() }
                        hash = fold!.facts(line).map { XXHash64.hash(Array($0.session.utf8)) } ?? 0
                    }
                    if let last = hashes.last, hash < last { sorted = false }
                    starts.append(start)
                    ends.append(end)
                    hashes.append(hash)
                    start = end + 1
                }
            }
            self.starts = starts
            self.ends = ends
            self.hashes = hashes
            self.sorted = sorted
        }

        /// The number of lines.
        var count: Int { hashes.count }

        /// The indices of the lines whose session hash is `hash`: a range
        /// found by binary search, or every line when the block is not in key order.
        func lines(withHash hash: UInt64) -> Range<Int> {
            guard sorted else { return 0..<hashes.count }
            return hashes.withUnsafeBufferPointer { hashes in
                var lo = 0, hi = hashes.count
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if hashes[mid] < hash { lo = mid + 1 } else { hi = mid }
                }
                var end = lo
                while end < hashes.count && hashes[end] == hash { end += 1 }
                return lo..<end
            }
        }

        /// Whether line `i`'s session hash is `hash`.
        func hasHash(_ i: Int, _ hash: UInt64) -> Bool { hashes[i] == hash }

        /// Calls `body` with the bytes of line `i` (without its `\n`).
        func withLine<R>(_ i: Int, _ body: (UnsafeRawBufferPointer) throws(SegmentStoreError) -> R) throws(SegmentStoreError) -> R {
            let range = starts[i]..<ends[i]
            return try bytes.withUnsafeBytes { raw in
                Result { () throws(SegmentStoreError) in try body(UnsafeRawBufferPointer(rebasing: raw[range])) }
            }.get()
        }
    }

    private struct Key: Hashable {
        var segment: Int
        var commit: Int
        var block: Int
    }

    private var blocks: [Key: Block] = [:]
    /// Keys in the order their blocks came in, oldest first (from ``oldest`` on).
    private var order: [Key] = []
    private var oldest = 0
    private var bytes = 0
    /// The most bytes of content kept.
    let budget: Int

    init(budget: Int = 32 << 20) {
        self.budget = budget
    }

    /// The block `block` of commit `ref`, decompressed by `load` when not kept.
    func block(_ ref: SegmentCatalog.CommitRef, _ block: Int,
               load: () throws(SegmentStoreError) -> UnsafeRawBufferPointer) throws(SegmentStoreError) -> Block {
        let key = Key(segment: ref.segment, commit: ref.commit, block: block)
        if let kept = blocks[key] { return kept }
        let made = Block(try load())
        while bytes + made.bytes.count > budget, oldest < order.count {
            if let dropped = blocks.removeValue(forKey: order[oldest]) { bytes -= dropped.bytes.count }
            oldest += 1
        }
        if oldest > 4096, oldest * 2 > order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
        blocks[key] = made
        order.append(key)
        bytes += made.bytes.count
        return made
    }
}
