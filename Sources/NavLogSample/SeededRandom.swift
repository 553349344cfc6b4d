/// A small, fast, seeded pseudo-random generator (xoshiro256**, seeded with
/// SplitMix64) whose output is the same on every platform and Swift version.
///
/// ```swift
/// var random = SeededRandom(seed: 42)
/// let die = random.int(in: 1...6)
/// if random.percent(25) { … }
/// ```
///
/// Use the methods here rather than the standard library's
/// `Int.random(in:using:)` or `shuffle(using:)`: those may change how they
/// consume random bits between releases, and navlog's sample data must stay
/// byte-identical for a given seed. Everything is integer arithmetic.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole output is determined by `seed`.
    public init(seed: UInt64) {
        var x = seed
        s0 = SeededRandom.splitMix64(&x)
        s1 = SeededRandom.splitMix64(&x)
        s2 = SeededRandom.splitMix64(&x)
        s3 = SeededRandom.splitMix64(&x)
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { nextBits() }

    private mutating func nextBits() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotateLeft(s3, 45)
        return result
    }

    /// A uniform integer in `0..<bound` (`bound` ≥ 1), without modulo bias
    /// (Lemire's multiply-and-reject).
    public mutating func int(below bound: Int) -> Int {
        precondition(bound > 0, "SeededRandom.int(below:) needs a positive bound")
        let n = UInt64(bound)
        var product = nextBits().multipliedFullWidth(by: n)
        if product.low < n {
            let threshold = (0 &- n) % n
            while product.low < threshold {
                product = nextBits().multipliedFullWidth(by: n)
            }
        }
        return Int(product.high)
    }

    /// A uniform integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + int(below: range.upperBound - range.lowerBound + 1)
    }

    /// A uniform 64-bit integer in `range`.
    public mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
        range.lowerBound + Int64(int(below: Int(range.upperBound - range.lowerBound + 1)))
    }

    /// `true` with probability `percent`/100.
    public mutating func percent(_ percent: Int) -> Bool { int(below: 100) < percent }

    /// `true` with probability `perMille`/1000.
    public mutating func perMille(_ perMille: Int) -> Bool { int(below: 1000) < perMille }

    /// A uniformly chosen element of a non-empty array.
    public mutating func pick<T>(_ items: [T]) -> T { items[int(below: items.count)] }

    /// An index chosen with probability proportional to its weight
    /// (non-negative, at least one positive).
    public mutating func weightedIndex(_ weights: [Int]) -> Int {
        var total = 0
        for w in weights { total += w }
        var r = int(below: total)
        for (i, w) in weights.enumerated() {
            if r < w { return i }
            r -= w
        }
        return weights.count - 1
    }

    // MARK: Seeding

    /// One step of SplitMix64: advances `state` and returns a well-mixed value.
    public static func splitMix64(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for an independent stream derived from `seed` and `stream`
    /// (e.g. one per session), so that streams can be generated in any order.
    public static func derive(_ seed: UInt64, stream: UInt64) -> UInt64 {
        var x = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        _ = splitMix64(&x)
        return splitMix64(&x)
    }
}

@inline(__always)
private func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
