// Segments/Records/: The segment store's records (schemas/segment-store.md): segment header and footer, commit indexes, session checkpoints, Bloom filters, session keys, the durable point, the store's error.

/// The Bloom filter of a commit's sessions (schemas/segment-store.md §5.3):
/// m = 64·W bits, k probes by double hashing of the session hash h:
/// h1 = h mod 2³², h2 = (h >> 32) | 1, probe i sets bit (h1 + i·h2) mod 2³² mod m.
struct BloomFilter: Hashable, Sendable {
    private(set) var words: [UInt64]
    let probes: Int

    /// An empty filter sized for `sessions` sessions at the default 10 bits each.
    init(sessions: Int, probes: Int = SegmentFormat.bloomProbes) {
        let bits = max(1, sessions) * SegmentFormat.bloomBitsPerSession
        words = [UInt64](repeating: 0, count: (bits + 63) / 64)
        self.probes = probes
    }

    init(words: [UInt64], probes: Int) {
        self.words = words
        self.probes = probes
    }

    @inline(__always)
    private func bit(_ h: UInt64, _ i: Int) -> Int {
        let h1 = UInt32(truncatingIfNeeded: h)
        let h2 = UInt32(truncatingIfNeeded: h >> 32) | 1
        let probe = h1 &+ UInt32(truncatingIfNeeded: i) &* h2
        return Int(UInt64(probe) % UInt64(words.count * 64))
    }

    mutating func insert(_ h: UInt64) {
        for i in 0..<probes {
            let b = bit(h, i)
            words[b >> 6] |= 1 << UInt64(b & 63)
        }
    }

    /// Whether every probe of `h` is set (a session with this hash may be in the commit).
    func mayContain(_ h: UInt64) -> Bool {
        guard !words.isEmpty else { return false }
        for i in 0..<probes {
            let b = bit(h, i)
            if words[b >> 6] & (1 << UInt64(b & 63)) == 0 { return false }
        }
        return true
    }
}
