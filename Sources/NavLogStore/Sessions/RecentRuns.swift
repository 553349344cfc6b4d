/// The sessions a first read met lately, each with the last line it met
/// of it, so that sessions whose lines interleave do not cut each other's
/// runs: without it, 64 sessions under way at once make a run of nearly
/// every line, and the first read sorts (and past 1M, spills) five times
/// as many pairs as there are sessions.
///
/// A direct-mapped table by session hash: a line of a session not held
/// gives up the slot's session, whose (hash, last line) pair is then
/// handed out. A session that comes back later gives another pair with a
/// later line; ``SessionEnds`` keeps the last line of each hash, so the
/// pairs say the same as one a run.
///
/// ```swift
/// var recent = RecentRuns()
/// if let left = recent.meet(hash, line: 7) { try runs.add(left) }   // then, at the end:
/// for pair in recent.remaining { try runs.add(pair) }
/// ```
struct RecentRuns {
    /// (hash, line) by slot; line 0 is an empty slot (lines count from 1).
    private var slots: [(hash: UInt64, line: Int)]
    private let mask: Int

    /// A table of `slots` sessions (a power of two): a few times the sessions under way at once in most inputs.
    init(slots: Int = 8192) {
        self.slots = Array(repeating: (0, 0), count: slots)
        mask = slots - 1
    }

    /// Notes line `line` of the session whose id hashes to `hash`; returns
    /// the (hash, last line) pair of the session it takes the slot of, if any.
    @inline(__always)
    mutating func meet(_ hash: UInt64, line: Int) -> PairKey? {
        let i = Int(truncatingIfNeeded: hash >> 40) & mask
        let held = slots[i]
        slots[i] = (hash, line)
        return held.line == 0 || held.hash == hash ? nil : PairKey(held.hash, UInt64(held.line))
    }

    /// The pairs of the sessions still held.
    var remaining: [PairKey] {
        slots.compactMap { $0.line == 0 ? nil : PairKey($0.hash, UInt64($0.line)) }
    }
}
