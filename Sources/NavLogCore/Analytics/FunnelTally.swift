/// Counts of a funnel over many sessions: how many sessions there were, how
/// many reached each step, and the milliseconds from each step to the next.
/// Tallies of disjoint session sets ``merge(_:)`` into the tally of their
/// union, so sessions can be counted on several threads.
///
/// ```swift
/// var tally = FunnelTally(steps: 3)
/// for occurrences in sessions { tally.add(funnel.evaluate(occurrences)) }
/// let rows = tally.rows(patterns: funnel.steps.map(\.description))
/// ```
public struct FunnelTally: Hashable, Sendable {
    /// Sessions counted, whether or not they reached step 1.
    public private(set) var sessions = 0
    /// Sessions that reached each step.
    public private(set) var reached: [Int]
    /// For each step after the first, how many of the sessions that reached
    /// it took each time (milliseconds) from the previous step: counts, not a
    /// value per session, so memory follows the distinct times, not the sessions.
    public private(set) var gaps: [[Int64: Int]]
    /// Sessions with an event matching each step anywhere (steps 1–64;
    /// 0 beyond), reached or not: a 0 is a step that matches nothing.
    public private(set) var matching: [Int]

    public init(steps: Int) {
        reached = [Int](repeating: 0, count: steps)
        matching = [Int](repeating: 0, count: steps)
        gaps = [[Int64: Int]](repeating: [:], count: steps)
    }

    /// Counts one session.
    public mutating func add(_ path: FunnelPath) {
        sessions += 1
        var bits = path.matchedSteps
        while bits != 0 {
            let k = bits.trailingZeroBitCount
            if k < matching.count { matching[k] += 1 }
            bits &= bits - 1
        }
        for k in 0..<min(path.reached, reached.count) {
            reached[k] += 1
            if k > 0 { gaps[k][path.times[k].milliseconds - path.times[k - 1].milliseconds, default: 0] += 1 }
        }
    }

    /// Adds another tally's sessions (of the same funnel).
    public mutating func merge(_ other: FunnelTally) {
        sessions += other.sessions
        for k in reached.indices {
            reached[k] += other.reached[k]
            matching[k] += other.matching[k]
            gaps[k].merge(other.gaps[k], uniquingKeysWith: +)
        }
    }

    /// The report rows, one per step.
    ///
    /// - Complexity: O(g log g) for g distinct gaps (the medians sort them).
    public func rows(patterns: [String]) -> [FunnelRow] {
        reached.indices.map { k in
            let first = reached[0]
            let previous = k == 0 ? sessions : reached[k - 1]
            return FunnelRow(
                step: k + 1,
                pattern: k < patterns.count ? patterns[k] : "",
                sessions: reached[k],
                conversionFromStart: first == 0 ? nil : FunnelRatio(reached[k], of: first),
                conversionFromPrevious: previous == 0 ? nil : FunnelRatio(reached[k], of: previous),
                medianMillisecondsFromPrevious: k == 0 ? nil : Self.median(gaps[k])
            )
        }
    }

    /// The median in whole milliseconds of the values counted in `counts`
    /// (value → how many times): the middle value, or for an even count the
    /// mean of the middle two rounded half away from zero.
    static func median(_ counts: [Int64: Int]) -> Int64? {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        let sorted = counts.sorted { $0.key < $1.key }
        // The value at 0-based rank `rank` of the sorted values.
        func value(at rank: Int) -> Int64 {
            var seen = 0
            for (value, count) in sorted {
                seen += count
                if rank < seen { return value }
            }
            return sorted[sorted.count - 1].key
        }
        let mid = total / 2
        if total % 2 == 1 { return value(at: mid) }
        let sum = value(at: mid - 1) + value(at: mid)
        return sum >= 0 ? (sum + 1) / 2 : -((-sum + 1) / 2)
    }
}

/// One step of a funnel report: the CSV row of docs/analytics.md.
public struct FunnelRow: Hashable, Sendable {
    /// The step's number, from 1.
    public var step: Int
    /// The step's pattern as written.
    public var pattern: String
    /// Sessions that reached the step.
    public var sessions: Int
    /// Reached this step ÷ reached step 1; `nil` when none reached step 1.
    public var conversionFromStart: FunnelRatio?
    /// Reached this step ÷ reached the previous one (step 1: ÷ all
    /// sessions); `nil` for a zero denominator.
    public var conversionFromPrevious: FunnelRatio?
    /// The median time from the previous step, in whole milliseconds; `nil`
    /// for step 1 and when no session reached the step.
    public var medianMillisecondsFromPrevious: Int64?

    public init(step: Int, pattern: String, sessions: Int, conversionFromStart: FunnelRatio?,
                conversionFromPrevious: FunnelRatio?, medianMillisecondsFromPrevious: Int64?) {
        self.step = step
        self.pattern = pattern
        self.sessions = sessions
        self.conversionFromStart = conversionFromStart
        self.conversionFromPrevious = conversionFromPrevious
        self.medianMillisecondsFromPrevious = medianMillisecondsFromPrevious
    }
}

/// A conversion fraction, kept exact and printed with 4 decimals (rounded
/// half up): `FunnelRatio(1, of: 3).text == "0.3333"`.
public struct FunnelRatio: Hashable, Sendable {
    public var numerator: Int
    public var denominator: Int

    public init(_ numerator: Int, of denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The value as a double.
    public var value: Double { Double(numerator) / Double(denominator) }

    /// Ten-thousandths, rounded half up.
    public var tenThousandths: Int {
        let wide = (numerator * 20_000) / denominator
        return (wide + 1) / 2
    }

    /// `0.3333`, `1.0000`.
    public var text: String {
        let units = tenThousandths
        let fraction = String(units % 10_000)
        return "\(units / 10_000)." + String(repeating: "0", count: 4 - fraction.count) + fraction
    }
}

extension Int64 {
    /// Milliseconds as seconds with 3 decimals: `1500` → `"1.500"`, `-20` → `"-0.020"`.
    public var secondsText: String {
        let sign = self < 0 ? "-" : ""
        let magnitude = self.magnitude
        let fraction = String(magnitude % 1000)
        return sign + "\(magnitude / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
