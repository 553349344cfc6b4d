import Testing
import NavLogCore
import NavLogSample

/// The checkpointed timeline: any state by position, seeking by seq and
/// time, searching forward.
@Suite("StateTimeline")
struct StateTimelineTests {
    /// A generated session long enough for several checkpoints.
    static let session: [Event] = {
        let generator = SampleGenerator(.init(sessions: 1, seed: 5, eventsPerSession: 700...700))
        return Array(generator.session(at: 0))
    }()

    static func timeline(interval: Int) -> CheckpointedTimeline {
        CheckpointedTimeline(session: session[0].session, events: session, interval: interval)
    }

    @Test(arguments: [1, 7, 256, 10_000])
    func everyStateIsTheFoldOfItsPrefix(interval: Int) {
        let timeline = Self.timeline(interval: interval)
        #expect(timeline.count == Self.session.count)
        #expect(timeline.checkpointCount == Self.session.count / interval + 1)
        var state = NavigationState(session: timeline.session)
        #expect(timeline.state(at: 0) == state)
        for (index, event) in Self.session.enumerated() {
            state.apply(event)
            #expect(timeline.state(at: index + 1) == state, "position \(index + 1)")
        }
    }

    @Test func backwardsGivesTheSameStatesAsForwards() {
        let timeline = Self.timeline(interval: 64)
        let forwards = (0...timeline.count).map { timeline.state(at: $0) }
        for p in stride(from: timeline.count, through: 0, by: -1) {
            #expect(timeline.state(at: p) == forwards[p])
        }
    }

    @Test func aStepIsTheEventItsEffectsAndTheStateAfter() {
        let timeline = Self.timeline(interval: 16)
        for p in [1, 16, 17, 300, timeline.count] {
            let step = timeline.step(at: p)
            var state = timeline.state(at: p - 1)
            #expect(step.position == p)
            #expect(step.event == Self.session[p - 1])
            #expect(step.effects == state.applyDescribing(Self.session[p - 1]))
            #expect(step.state == timeline.state(at: p))
            #expect(step.screen == step.state.scenes[step.event.sceneID]?.screen)
        }
    }

    static func gappy() -> CheckpointedTimeline {
        // seqs 2, 5, 9; t goes back at the third event.
        let events = [
            Event(session: "s", seq: 2, t: Fixture.t(10), kind: .mark(label: "a")),
            Event(session: "s", seq: 5, t: Fixture.t(20), kind: .stackPush(stack: "main", value: R("Recipe", "x"))),
            Event(session: "s", seq: 9, t: Fixture.t(15), kind: .mark(label: "c")),
        ]
        return CheckpointedTimeline(session: "s", events: events, interval: 2)
    }

    @Test func seekingBySeqStandsAfterTheLastEventAtOrBeforeIt() {
        let timeline = Self.gappy()
        #expect([0, 1, 2, 3, 4, 5, 8, 9, 100].map { timeline.position(ofSeq: $0) } == [0, 0, 1, 1, 1, 2, 2, 3, 3])
    }

    @Test func seekingByTimeFindsTheLastEventNotAfterIt() {
        let timeline = Self.gappy()
        #expect(timeline.position(atOrBefore: Fixture.t(9)) == 0)
        #expect(timeline.position(atOrBefore: Fixture.t(10)) == 1)
        #expect(timeline.position(atOrBefore: Fixture.t(16)) == 3)
        #expect(timeline.position(atOrBefore: Fixture.t(14)) == 1)
        #expect(timeline.position(atOrBefore: Fixture.t(99)) == 3)
    }

    @Test func searchFindsTheNextMatchByTypeScreenRouteValueMarkOrURL() {
        let events = Fixture.events([
            .tabsDefine(tabs: ["home"]), .tabSelect(tab: "home"),                    // 1, 2: screen tab:home
            .stackPush(stack: "other", value: R("Recipe", "hidden")),               // 3: value only
            .mark(label: "purchase"),                                                // 4
            .urlOpen(url: "recipes://x"),                                            // 5
            .stackPush(stack: "home", value: R("Recipe", "pie")),                   // 6: screen Recipe/pie
            .splitSelect(split: "s", column: .detail, selection: [R("Item", "1")]), // 7
            .stackSet(stack: "z", path: [R("Deep", "a"), R("Deeper")]),            // 8
        ])
        let timeline = CheckpointedTimeline(session: Fixture.session, events: events, interval: 3)
        #expect(timeline.position(after: 0, matching: GlobPattern("Recipe/*")) == 3)
        #expect(timeline.position(after: 3, matching: GlobPattern("Recipe/*")) == 6)
        #expect(timeline.position(after: 6, matching: GlobPattern("Recipe/*")) == 7)  // the screen is still Recipe/pie
        #expect(timeline.position(after: 0, matching: GlobPattern("tab:home")) == 2)
        #expect(timeline.position(after: 0, matching: GlobPattern("mark:pur*")) == 4)
        #expect(timeline.position(after: 0, matching: GlobPattern("url:recipes://*")) == 5)
        #expect(timeline.position(after: 0, matching: GlobPattern("Item/1")) == 7)
        #expect(timeline.position(after: 0, matching: GlobPattern("Deeper")) == 8)
        #expect(timeline.position(after: 0, matching: GlobPattern("stack.set")) == 8)
        #expect(timeline.position(after: 0, matching: GlobPattern("purchase")) == nil)
        #expect(timeline.position(after: 8, matching: GlobPattern("*")) == nil)
    }
}

extension StateTimelineTests {
    @Test func stepsOfARangeAreTheStepsOneByOne() {
        let timeline = Self.timeline(interval: 32)
        #expect(timeline.steps(30...70) == (30...70).map { timeline.step(at: $0) })
        #expect(timeline.steps(1...1) == [timeline.step(at: 1)])
    }

    @Test func aStepAsJSONListsEffectsAndAnomaliesApart() {
        let events = [
            Fixture.event(1, .stackPush(stack: "main", value: R("Recipe", "pie"))),
            Fixture.event(2, .stackPop(stack: "main", count: 2), cause: 1),
            Fixture.event(3, .sceneClose),
        ]
        let timeline = CheckpointedTimeline(session: Fixture.session, events: events)
        #expect(timeline.step(at: 2).jsonValue.canonicalText
                == #"{"anomalies":["pop-underflow"],"cause":1,"effects":["popped 1 from main","screen now root"],"scene":"main","screen":"root","seq":2,"t":"2026-11-20T10:00:02.000Z","type":"stack.pop"}"#)
        #expect(timeline.step(at: 3).jsonValue.canonicalText
                == #"{"anomalies":[],"effects":["scene main closed"],"scene":"main","screen":null,"seq":3,"t":"2026-11-20T10:00:03.000Z","type":"scene.close"}"#)
    }
}
