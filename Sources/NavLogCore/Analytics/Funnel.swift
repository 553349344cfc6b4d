/// A funnel (contract §4 "Funnels", §5): ordered steps, an optional window,
/// an order mode and exclusions. ``evaluate(_:)`` gives one session's result.
///
/// ```swift
/// let funnel = Funnel(steps: [FunnelStep("tab:browse"), FunnelStep("Recipe/*"), FunnelStep("mark:purchase")],
///                     window: FunnelWindow(parsing: "10m"))
/// let path = funnel.evaluate(occurrences)   // path.reached: 0…3
/// ```
///
/// A session reaches step k when, from some occurrence of step 1, it has
/// occurrences of steps 2…k in order: each the earliest one with a strictly
/// greater seq than the previous step's, all within the window of the start
/// (`t − t_start ≤ window`, inclusive). When the earliest candidate of a step
/// lies outside the window, the chain stops there. A session's result is its
/// best start: the one reaching the most steps, the earliest such start on a
/// tie.
///
/// ``FunnelOrder/strict``: each step's occurrence must be the very next one
/// of its kind after the previous step's (the next screen view for a screen
/// step, the next mark for a `mark:` step, the next deep link for a `url:`
/// step); marks and deep links in between do not break a chain of screens.
///
/// Exclusions: a chain cannot go from step k to step k+1 when an occurrence
/// matching an excluded pattern lies strictly between the two (by seq); it
/// stops at step k.
public struct Funnel: Hashable, Sendable {
    /// The steps, in order (at least one).
    public var steps: [FunnelStep]
    /// The window from the start occurrence, if any.
    public var window: FunnelWindow?
    /// Ordered (the default) or strict.
    public var order: FunnelOrder
    /// Patterns that break a chain between two steps.
    public var exclusions: [FunnelStep]

    public init(steps: [FunnelStep], window: FunnelWindow? = nil, order: FunnelOrder = .ordered, exclusions: [FunnelStep] = []) {
        self.steps = steps
        self.window = window
        self.order = order
        self.exclusions = exclusions
    }

    /// One session's best chain, from its occurrences in seq order.
    ///
    /// - Complexity: O(s · n) glob matches for s steps and n occurrences,
    ///   then O(s) per start occurrence.
    public func evaluate(_ occurrences: [FunnelOccurrence]) -> FunnelPath {
        let n = occurrences.count
        guard !steps.isEmpty, n > 0 else { return FunnelPath() }
        // next[k][i]: the first index ≥ i whose occurrence matches step k (n when none).
        // (A step equal to an earlier one shares its column; steps are few,
        // so they are compared, not hashed.)
        var next = [[Int32]](repeating: [], count: steps.count)
        occurrences.withUnsafeBufferPointer { occurrences in
            for k in steps.indices {
                if let same = steps[..<k].firstIndex(of: steps[k]) { next[k] = next[same]; continue }
                let target = steps[k].target, glob = steps[k].glob
                next[k] = [Int32](unsafeUninitializedCapacity: n + 1) { column, count in
                    column[n] = Int32(n)
                    var i = n - 1
                    while i >= 0 {
                        column[i] = occurrences[i].target == target && glob.matches(occurrences[i].name) ? Int32(i) : column[i + 1]
                        i -= 1
                    }
                    count = n + 1
                }
            }
        }
        // excluded[i]: how many occurrences before index i match an exclusion.
        var excluded: [Int32] = []
        if !exclusions.isEmpty {
            excluded = [Int32](repeating: 0, count: n + 1)
            for i in 0..<n {
                let hit = exclusions.contains { $0.matches(occurrences[i]) }
                excluded[i + 1] = excluded[i] + (hit ? 1 : 0)
            }
        }
        // Strict order: sameKindNext[i] is the next index after i of the same target as step k.
        var nextOfTarget: [FunnelStep.Target: [Int32]] = [:]
        if order == .strict {
            for target in Set(steps.map(\.target)) {
                var column = [Int32](repeating: Int32(n), count: n + 1)
                var i = n - 1
                while i >= 0 {
                    column[i] = occurrences[i].target == target ? Int32(i) : column[i + 1]
                    i -= 1
                }
                nextOfTarget[target] = column
            }
        }

        var best = FunnelPath()
        var start = Int(next[0][0])
        var chain: [Int] = []
        chain.reserveCapacity(steps.count)
        while start < n {
            chain.removeAll(keepingCapacity: true)
            chain.append(start)
            var position = start
            for k in 1..<steps.count {
                let candidate: Int
                if order == .strict {
                    let j = Int(nextOfTarget[steps[k].target]![position + 1])
                    guard j < n, next[k][j] == Int32(j) else { break }
                    candidate = j
                } else {
                    candidate = Int(next[k][position + 1])
                    guard candidate < n else { break }
                }
                if let window, occurrences[candidate].t.milliseconds - occurrences[start].t.milliseconds > window.milliseconds {
                    break
                }
                if !excluded.isEmpty, excluded[candidate] - excluded[position + 1] > 0 { break }
                chain.append(candidate)
                position = candidate
            }
            if chain.count > best.reached {
                best = FunnelPath(times: chain.map { occurrences[$0].t }, seqs: chain.map { occurrences[$0].seq })
                if chain.count == steps.count { break }
            }
            start = Int(next[0][start + 1])
        }
        return best
    }
}

/// How a funnel's steps must follow each other.
public enum FunnelOrder: String, Hashable, Sendable, CaseIterable {
    /// Each step after the previous (by seq), anything in between.
    case ordered
    /// Each step the very next occurrence of its kind after the previous.
    case strict
}

/// One session's best chain through a funnel: the times and seqs of the
/// occurrences matched for steps 1…``reached``.
public struct FunnelPath: Hashable, Sendable {
    /// When each reached step occurred.
    public var times: [Timestamp]
    /// The seq of each reached step's occurrence.
    public var seqs: [Int]

    public init(times: [Timestamp] = [], seqs: [Int] = []) {
        self.times = times
        self.seqs = seqs
    }

    /// How many steps the session reached (0 when it never reached step 1).
    public var reached: Int { times.count }
}
