/// A funnel (docs/analytics.md): ordered steps, an optional window,
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
        var scratch = FunnelScratch()
        return evaluate(occurrences, scratch: &scratch)
    }

    /// ``evaluate(_:)`` with the work tables in `scratch`, reused from one
    /// session to the next (no allocation once they are big enough).
    public func evaluate(_ occurrences: [FunnelOccurrence], scratch: inout FunnelScratch) -> FunnelPath {
        occurrences.withUnsafeBufferPointer { evaluate(OccurrenceRows(funnel: self, occurrences: $0), scratch: &scratch) }
    }

    /// One session's best chain over `rows` (in seq order), with the work
    /// tables in `scratch` (reused from session to session: no allocation
    /// once they are big enough). The one place the rules above are applied.
    public func evaluate<Rows: FunnelRows>(_ rows: Rows, scratch: inout FunnelScratch) -> FunnelPath {
        let n = rows.count
        guard !steps.isEmpty, n > 0 else { return FunnelPath() }
        let width = n + 1
        // next[k * width + i]: the first index ≥ i whose row matches step k (n when none).
        // (A step equal to an earlier one shares its column; steps are few,
        // so they are compared, not hashed.)
        scratch.next.removeAll(keepingCapacity: true)
        scratch.next.append(contentsOf: repeatElement(Int32(n), count: steps.count * width))
        scratch.next.withUnsafeMutableBufferPointer { next in
            for k in steps.indices {
                let base = k * width
                if let same = steps[..<k].firstIndex(of: steps[k]) {
                    for i in 0..<width { next[base + i] = next[same * width + i] }
                    continue
                }
                var i = n - 1
                while i >= 0 {
                    next[base + i] = rows.matches(step: k, i) ? Int32(i) : next[base + i + 1]
                    i -= 1
                }
            }
        }
        // excluded[i]: how many rows before index i match an exclusion.
        scratch.excluded.removeAll(keepingCapacity: true)
        if !exclusions.isEmpty {
            scratch.excluded.append(0)
            for i in 0..<n { scratch.excluded.append(scratch.excluded[i] + (rows.isExcluded(i) ? 1 : 0)) }
        }
        // Strict order: nextOfTarget[t * width + i] is the first index ≥ i of target t.
        scratch.nextOfTarget.removeAll(keepingCapacity: true)
        if order == .strict {
            scratch.nextOfTarget.append(contentsOf: repeatElement(Int32(n), count: FunnelScratch.targets.count * width))
            for (t, target) in FunnelScratch.targets.enumerated() where steps.contains(where: { $0.target == target }) {
                var i = n - 1
                while i >= 0 {
                    scratch.nextOfTarget[t * width + i] = rows.target(i) == target ? Int32(i) : scratch.nextOfTarget[t * width + i + 1]
                    i -= 1
                }
            }
        }

        var matched: UInt64 = 0
        for k in steps.indices.prefix(64) where scratch.next[k * width] < Int32(n) { matched |= 1 << UInt64(k) }
        var best = FunnelPath()
        best.matchedSteps = matched
        var bestChain = 0
        var start = Int(scratch.next[0])
        scratch.chain.removeAll(keepingCapacity: true)
        while start < n {
            scratch.chain.removeAll(keepingCapacity: true)
            scratch.chain.append(start)
            var position = start
            for k in 1..<steps.count {
                let candidate: Int
                if order == .strict {
                    let t = FunnelScratch.targets.firstIndex(of: steps[k].target)!
                    let j = Int(scratch.nextOfTarget[t * width + position + 1])
                    guard j < n, scratch.next[k * width + j] == Int32(j) else { break }
                    candidate = j
                } else {
                    candidate = Int(scratch.next[k * width + position + 1])
                    guard candidate < n else { break }
                }
                if let window, rows.milliseconds(candidate) - rows.milliseconds(start) > window.milliseconds {
                    break
                }
                if !scratch.excluded.isEmpty, scratch.excluded[candidate] - scratch.excluded[position + 1] > 0 { break }
                scratch.chain.append(candidate)
                position = candidate
            }
            if scratch.chain.count > bestChain {
                bestChain = scratch.chain.count
                best = FunnelPath(times: scratch.chain.map { Timestamp(milliseconds: rows.milliseconds($0)) },
                                  seqs: scratch.chain.map { rows.seq($0) })
                best.matchedSteps = matched
                if bestChain == steps.count { break }
            }
            start = Int(scratch.next[start + 1])
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

    /// Bit k set: some event of the session matches step k + 1, in any
    /// position (steps 1–64), whether or not the chain reached it.
    public var matchedSteps: UInt64 = 0

    public init(times: [Timestamp] = [], seqs: [Int] = []) {
        self.times = times
        self.seqs = seqs
    }

    /// How many steps the session reached (0 when it never reached step 1).
    public var reached: Int { times.count }
}
