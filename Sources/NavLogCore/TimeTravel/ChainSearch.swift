// TimeTravel/: State specs, timelines, diff, blame, divergence and screen search, and their JSON.

/// The chain step of `navlog bisect`, the same for every file format: over
/// the positions (event counts) at which both sides have a state-chain
/// hash — a log's block ends, a stored session's checkpoints — the leading
/// ones whose hashes agree. Each hash covers its state and the hash before
/// it, so chains that part stay apart: they agree on a prefix, and a binary
/// search finds its end with O(log n) looks at hashes. What follows it is
/// ``DivergenceSearch``'s.
///
/// ```swift
/// let shared = ChainSearch.sharedPositions(endsA, endsB)
/// let agreeing = ChainSearch.agreeingPrefix(count: shared.count) { hashA[shared[$0].a] == hashB[shared[$0].b] }
/// ```
public enum ChainSearch {
    /// The positions both sides have a hash at, as (index in `a`, index in
    /// `b`); each list increases. With `untilApart`, only those before the
    /// first position just one side has (a log's blocks line up only while
    /// their ends do).
    public static func sharedPositions(_ a: [Int], _ b: [Int], untilApart: Bool = false) -> [(a: Int, b: Int)] {
        var shared: [(a: Int, b: Int)] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                shared.append((i, j))
                i += 1
                j += 1
            } else if untilApart {
                break
            } else if a[i] < b[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return shared
    }

    /// How many of the first `count` shared positions have agreeing chains,
    /// asking `agree` about O(log count) of them.
    public static func agreeingPrefix<E: Error>(count: Int, agree: (Int) throws(E) -> Bool) throws(E) -> Int {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if try agree(mid) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
