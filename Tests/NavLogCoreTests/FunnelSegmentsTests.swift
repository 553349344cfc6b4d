import NavLogCore
import Testing

/// A funnel over many sessions: segmented by a field of `session.start`,
/// limited to sessions that started in a range, and the same whether the
/// sessions were counted in one tally or in several merged.
@Suite struct FunnelSegmentsTests {
    /// A session that starts at `minute` with app version `version` and marks `purchase` when `buys`.
    static func session(_ id: String, minute: Int64, version: String?, buys: Bool) -> SessionOccurrences {
        let t0 = Timestamp(milliseconds: 1_795_168_800_000 + minute * 60_000)
        var session = SessionOccurrences(session: id)
        session.add(Event(session: id, seq: 1, t: t0,
                          kind: .sessionStart(app: version.map { ["version": .string($0)] }, device: nil)))
        if buys { session.add(Event(session: id, seq: 2, t: Timestamp(milliseconds: t0.milliseconds + 5_000), kind: .mark(label: "purchase"))) }
        return session
    }

    static let sessions = [
        session("a", minute: 0, version: "1.0", buys: true),
        session("b", minute: 10, version: "1.0", buys: false),
        session("c", minute: 20, version: "2.0", buys: true),
        session("d", minute: 30, version: nil, buys: true),
    ]
    static let funnel = Funnel(steps: [FunnelStep("mark:purchase")])

    @Test func sessionsAreSegmentedByTheirStartField() {
        var segments = FunnelSegments(funnel: Self.funnel, by: ["app", "version"])
        for session in Self.sessions { segments.add(session) }
        #expect(segments.tallies.keys.sorted() == ["", "1.0", "2.0"])
        #expect(segments.tallies["1.0"]?.sessions == 2)
        #expect(segments.tallies["1.0"]?.reached == [1])
        #expect(segments.tallies[""]?.reached == [1])
    }

    @Test func onlySessionsThatStartedInTheRangeCount() {
        let from = Timestamp(milliseconds: 1_795_168_800_000 + 10 * 60_000)
        let to = Timestamp(milliseconds: 1_795_168_800_000 + 20 * 60_000)
        var segments = FunnelSegments(funnel: Self.funnel, startedFrom: from, startedTo: to)
        for session in Self.sessions { segments.add(session) }
        #expect(segments.tallies[""]?.sessions == 2)   // b and c: both ends inclusive
        #expect(segments.tallies[""]?.reached == [1])
    }

    @Test func mergedPartsEqualOneTally() {
        var whole = FunnelSegments(funnel: Self.funnel, by: ["app", "version"])
        var first = whole, second = whole
        for (i, session) in Self.sessions.enumerated() {
            whole.add(session)
            if i % 2 == 0 { first.add(session) } else { second.add(session) }
        }
        first.merge(second)
        #expect(first.tallies == whole.tallies)
    }
}
