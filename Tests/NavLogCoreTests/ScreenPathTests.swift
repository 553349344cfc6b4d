import Testing
import NavLogCore

/// `navlog paths`' counting, by hand.
@Suite("Screen paths")
struct ScreenPathTests {
    static func views(_ names: [String], scene: String = "main", from seq: Int = 1) -> [FunnelOccurrence] {
        names.enumerated().map { FunnelOccurrence(seq: seq + $0.offset, t: Fixture.t(Int64(seq + $0.offset)), target: .screen, name: $0.element, scene: scene) }
    }

    @Test func transitionsArePairsOfConsecutiveViewsOfOneScene() {
        var tally = ScreenPathTally(mode: .transitions)
        // Two scenes interleaved: main A → B → A, second X → Y; a mark in between is not a view.
        let session = Self.views(["A"], from: 1) + Self.views(["X"], scene: "second", from: 2) + Self.views(["B"], from: 3)
            + [FunnelOccurrence(seq: 4, t: Fixture.t(4), target: .mark, name: "m")] + Self.views(["Y"], scene: "second", from: 5)
            + Self.views(["A"], from: 6)
        tally.add(session)
        tally.add(Self.views(["A", "B"]))
        #expect(tally.total == 4)
        #expect(tally.sessions == 2)
        #expect(tally.top(10) == [
            .init(path: ["A", "B"], count: 2, sessions: 2),
            .init(path: ["B", "A"], count: 1, sessions: 1),
            .init(path: ["X", "Y"], count: 1, sessions: 1),
        ])
        #expect(tally.top(1).count == 1)
    }

    @Test func pathsAfterAScreenEndWhenTheSceneDoes() {
        var tally = ScreenPathTally(mode: .after(GlobPattern("Recipe/*")), depth: 2)
        tally.add(Self.views(["Recipe/a", "Step/1", "Step/2", "Recipe/b", "Cart"]))
        tally.add(Self.views(["Recipe/a", "Step/1", "Step/2"]))
        #expect(tally.total == 3)
        #expect(tally.top(10) == [
            .init(path: ["Recipe/a", "Step/1", "Step/2"], count: 2, sessions: 2),
            .init(path: ["Recipe/b", "Cart", "(end)"], count: 1, sessions: 1),
        ])
    }

    @Test func pathsBeforeAScreenStartWhenTheSceneDoes() {
        var tally = ScreenPathTally(mode: .before(GlobPattern("Cart")), depth: 2)
        tally.add(Self.views(["Cart", "A", "B", "Cart", "Cart2", "C", "Cart"]))
        #expect(tally.top(10) == [
            .init(path: ["(start)", "Cart"], count: 1, sessions: 1),
            .init(path: ["A", "B", "Cart"], count: 1, sessions: 1),
            .init(path: ["Cart2", "C", "Cart"], count: 1, sessions: 1),
        ])
    }

    @Test func mergedTalliesEqualOneTally() {
        let sessions = [Self.views(["A", "B", "C"]), Self.views(["A", "B"]), Self.views(["B", "C", "A", "B"])]
        var one = ScreenPathTally(mode: .transitions)
        for s in sessions { one.add(s) }
        var left = ScreenPathTally(mode: .transitions), right = ScreenPathTally(mode: .transitions)
        left.add(sessions[0])
        right.add(sessions[1])
        right.add(sessions[2])
        left.merge(right)
        #expect(left.top(100) == one.top(100))
        #expect(left.total == one.total && left.sessions == one.sessions)
        #expect(ScreenPathReport(one, top: 2).csv == "rank,from,to,count,sessions,share\n1,A,B,3,3,0.5000\n2,B,C,2,2,0.3333\n")
    }
}
