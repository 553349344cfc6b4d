import Testing
@testable import NavLogCore

/// A funnel's medians come from counts per distinct time between steps, not
/// a number per session: the same medians, merged in any order.
@Suite struct FunnelTallyMedianTests {
    /// A session that reached step 2 `gap` ms after step 1.
    static func path(_ gap: Int64) -> FunnelPath {
        FunnelPath(times: [Timestamp(milliseconds: 1_000), Timestamp(milliseconds: 1_000 + gap)], seqs: [1, 2])
    }

    @Test func mediansOfRepeatedTimes() {
        var odd = FunnelTally(steps: 2)
        for gap: Int64 in [5_000, 1_000, 1_000, 3_000, 1_000] { odd.add(Self.path(gap)) }
        #expect(odd.rows(patterns: ["a", "b"])[1].medianMillisecondsFromPrevious == 1_000)
        var even = FunnelTally(steps: 2)
        for gap: Int64 in [1_000, 5_000, 1_000, 3_000, 3_000, 4_000] { even.add(Self.path(gap)) }
        // Sorted: 1000 1000 3000 3000 4000 5000: the middle two are 3000 and 3000.
        #expect(even.rows(patterns: ["a", "b"])[1].medianMillisecondsFromPrevious == 3_000)
        var halves = FunnelTally(steps: 2)
        for gap: Int64 in [1_000, 2_001] { halves.add(Self.path(gap)) }
        #expect(halves.rows(patterns: ["a", "b"])[1].medianMillisecondsFromPrevious == 1_501)
        // Merged from two tallies: the same as counted in one.
        var a = FunnelTally(steps: 2), b = FunnelTally(steps: 2)
        for gap: Int64 in [1_000, 5_000, 1_000] { a.add(Self.path(gap)) }
        for gap: Int64 in [3_000, 3_000, 4_000] { b.add(Self.path(gap)) }
        b.merge(a)
        #expect(b == even)
        #expect(FunnelTally(steps: 2).rows(patterns: ["a", "b"])[1].medianMillisecondsFromPrevious == nil)
    }
}
