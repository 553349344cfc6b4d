import Testing
import NavLogCore

/// Anomalies: surprising but well-formed events are applied, counted by kind
/// and returned by `apply` (docs/events.md).
@Suite("Projection: anomalies")
struct AnomalyTests {
    /// A setup, then the event that causes exactly one anomaly.
    static let cases: [(setup: [EventKind], event: EventKind, anomaly: AnomalyKind)] = [
        ([.stackPush(stack: "s", value: R("A"))], .stackPop(stack: "s", count: 2), .popUnderflow),
        ([], .stackPop(stack: "s", count: nil), .popUnderflow),
        ([.modalPresent(modal: "a", style: nil)], .modalDismiss(modal: "b"), .dismissUnknown),
        ([], .modalDismiss(modal: nil), .dismissEmpty),
        ([.modalPresent(modal: "a", style: nil), .modalPresent(modal: "b", style: nil)],
         .modalPresent(modal: "a", style: nil), .presentDuplicate),
        ([.tabVisibility(tab: "x", hidden: true)], .tabSelect(tab: "x"), .selectHidden),
        ([.sessionEnd], .mark(label: "late"), .afterEnd),
    ]

    @Test("each kind is returned and counted", arguments: 0..<cases.count)
    func eachKind(index: Int) {
        let (setup, kind, anomaly) = Self.cases[index]
        var state = Fixture.state(setup)
        #expect(state.anomalies.isEmpty)
        #expect(state.apply(Fixture.event(setup.count + 1, kind)) == [anomaly])
        #expect(state.anomalies == [anomaly: 1])
        #expect(state.apply(Fixture.event(setup.count + 2, kind)) == [anomaly])
        #expect(state.anomalies == [anomaly: 2])
    }

    @Test func everyKindIsCovered() {
        #expect(Set(Self.cases.map(\.anomaly)) == Set(AnomalyKind.allCases))
    }

    @Test func anOrdinaryEventHasNone() {
        var state = NavigationState(session: "s-1")
        #expect(state.apply(Fixture.event(1, .stackPush(stack: "s", value: R("A")))) == [])
        #expect(state.anomalies.isEmpty)
    }

    @Test func afterEndIsCountedAlongsideTheEventsOwnAnomaly() {
        var state = Fixture.state([.sessionEnd])
        #expect(state.apply(Fixture.event(2, .stackPop(stack: "s", count: nil))) == [.popUnderflow, .afterEnd])
        #expect(state.apply(Fixture.event(3, .modalDismiss(modal: nil))) == [.dismissEmpty, .afterEnd])
        #expect(state.apply(Fixture.event(4, .stackPush(stack: "s", value: R("A")))) == [.afterEnd])
        #expect(state.anomalies == [.popUnderflow: 1, .dismissEmpty: 1, .afterEnd: 3])
        #expect(state.scenes["main"]?.stacks["s"] == [R("A")])
    }

    @Test func aSecondSessionEndIsAfterEnd() {
        var state = Fixture.state([.sessionEnd])
        #expect(state.apply(Fixture.event(2, .sessionEnd)) == [.afterEnd])
        #expect(state.anomalies == [.afterEnd: 1])
    }

    @Test func sceneLifecycleEventsAfterTheEndAreAfterEnd() {
        var state = Fixture.state([.sessionEnd])
        #expect(state.apply(Fixture.event(2, .sceneClose)) == [.afterEnd])
        #expect(state.apply(Fixture.event(3, .sceneOpen, scene: "w2")) == [.afterEnd])
        #expect(state.scenes == ["w2": SceneState()])
        #expect(state.anomalies == [.afterEnd: 2])
    }

    @Test func foldingCountsAnomaliesOfEveryKind() {
        let state = Fixture.state([
            .stackPop(stack: "s", count: nil), .modalDismiss(modal: nil), .modalDismiss(modal: "x"),
            .modalPresent(modal: "m", style: nil), .modalPresent(modal: "m", style: nil),
            .tabVisibility(tab: "t", hidden: true), .tabSelect(tab: "t"), .tabSelect(tab: "t"),
            .sessionEnd, .stackPop(stack: "s", count: 1),
        ])
        #expect(state.anomalies == [
            .popUnderflow: 2, .dismissEmpty: 1, .dismissUnknown: 1, .presentDuplicate: 1,
            .selectHidden: 2, .afterEnd: 1,
        ])
    }
}
