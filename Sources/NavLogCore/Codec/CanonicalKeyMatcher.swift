/// Recognises a known key written plainly (`"seq":`, no escapes, no space
/// before the colon) by comparing two machine words, without scanning it.
///
/// Canonical lines spell every key this way, so the line parser tries this
/// first; whatever it does not recognise (unknown keys, escapes, spaces, a
/// key over 14 bytes) goes
/// through the general scanner, which gives the same result more slowly.
///
/// Its tables never change after they are built, so one matcher
/// (``shared``) serves every parser on every thread. They are raw buffers
/// read with unaligned word loads: the match runs for every key of every
/// line, and must not pay for bounds checks or a byte loop.
final class CanonicalKeyMatcher: @unchecked Sendable {
    /// The matcher every line parser uses.
    static let shared = CanonicalKeyMatcher()

    /// One known key's bytes after the opening quote, through the colon.
    struct Pattern {
        var word0: UInt64
        var mask0: UInt64
        var word1: UInt64
        var mask1: UInt64
        /// Bytes from the opening quote through the colon.
        var length: Int
        var key: CanonicalKey
    }

    /// Patterns grouped by the bucket of their first three bytes.
    private let patterns: UnsafeMutablePointer<Pattern>
    /// For each bucket: where its patterns start, and how many (a few:
    /// `stack`/`state` and `tab`/`tabs` share their first three bytes).
    private let groups: UnsafeMutablePointer<(start: Int, count: Int)>
    private static let bucketBits = 8

    /// The bucket of the first three bytes (the shortest pattern, `t":`)
    /// held in the low bits of `word`, by the codec's one hash.
    @inline(__always)
    private static func bucket(_ word: UInt64) -> Int {
        ShortBytes.slot(word & 0xFF_FFFF, 0, count: 3, bits: bucketBits)
    }

    init() {
        // A key whose name, quote and colon take more than two words
        // (`tabPresentation`) is left to the general scanner: it names it
        // the same, and such a key is rare.
        let all = CanonicalKey.allCases.filter { $0.name.utf8.count <= 14 }.map { key -> (Int, Pattern) in
            let bytes = Array(key.name.utf8) + [UInt8(ascii: "\""), UInt8(ascii: ":")]
            precondition(bytes.count <= 16)
            func word(_ range: Range<Int>) -> (UInt64, UInt64) {
                var value: UInt64 = 0, mask: UInt64 = 0
                for (n, k) in range.enumerated() where k < bytes.count {
                    value |= UInt64(bytes[k]) << UInt64(8 * n)
                    mask |= UInt64(0xFF) << UInt64(8 * n)
                }
                return (value, mask)
            }
            let (w0, m0) = word(0..<8), (w1, m1) = word(8..<16)
            return (Self.bucket(w0), Pattern(word0: w0, mask0: m0, word1: w1, mask1: m1, length: bytes.count + 1, key: key))
        }.sorted { $0.0 < $1.0 }
        patterns = .allocate(capacity: all.count)
        patterns.initialize(from: all.map(\.1), count: all.count)
        groups = .allocate(capacity: 1 << Self.bucketBits)
        groups.initialize(repeating: (0, 0), count: 1 << Self.bucketBits)
        for (index, entry) in all.enumerated() {
            if groups[entry.0].count == 0 { groups[entry.0].start = index }
            groups[entry.0].count += 1
        }
    }

    deinit {
        patterns.deallocate()
        groups.deallocate()
    }

    /// The known key whose quoted name and colon start at `offset` (the
    /// opening quote), or `nil`. Needs 17 readable bytes from `offset`.
    @inline(__always)
    func match(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Pattern? {
        guard offset + 17 <= bytes.count, let base = bytes.baseAddress,
              base.load(fromByteOffset: offset, as: UInt8.self) == UInt8(ascii: "\"")
        else { return nil }
        let w0 = base.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self)
        let w1 = base.loadUnaligned(fromByteOffset: offset + 9, as: UInt64.self)
        let group = groups[Self.bucket(w0)]
        var k = group.start
        let end = group.start + group.count
        while k < end {
            let p = patterns[k]
            if w0 & p.mask0 == p.word0, w1 & p.mask1 == p.word1 { return p }
            k += 1
        }
        return nil
    }
}
