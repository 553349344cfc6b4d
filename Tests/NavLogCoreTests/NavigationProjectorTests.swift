import Testing
@testable import NavLogCore
import NavLogSample

/// A projector folding a whole session gives, event by event, the anomalies,
/// states and screen views of applying each event to a plain state on its
/// own (`NavigationState.apply`, which starts afresh every time), whatever
/// the mix of scenes, stacks and splits, and from states it handed out.
@Suite("Navigation projector")
struct NavigationProjectorTests {
    /// Events that jump between scenes, stacks and splits, open and close
    /// scenes, create and empty stacks, and restore scenes.
    static func events(_ scenes: [String], count: Int = 4000) -> [Event] {
        var random = SeededRandom(seed: 5)
        var out: [Event] = []
        let t = Timestamp(milliseconds: 1_790_000_000_000)
        for seq in 1...count {
            let scene = random.pick(scenes)
            let stack = random.pick(["home", "search", "a", "b", "x-long-stack-name-over-sixteen"])
            let kind: EventKind
            let split = random.pick(["main", "library", "a-split-id-longer-than-sixteen"])
            switch random.int(below: 14) {
            case 10:
                let column = random.pick(SplitColumn.allCases)
                kind = .splitSelect(split: split == "main" && random.percent(50) ? nil : split, column: column,
                                    selection: random.percent(20) ? [] : [RouteValue(type: "Item", id: "\(seq % 5)")])
            case 11: kind = .splitVisibility(split: split, visibility: random.pick(SplitVisibility.allCases))
            case 12:
                let restored = SceneState(splits: random.percent(50) ? [split: SplitState(detail: [RouteValue(type: "D")])] : [:],
                                          stacks: [stack: [RouteValue(type: "Restored", id: "\(seq)")]],
                                          tabs: TabState(order: ["home", "a"], selected: random.percent(50) ? stack : nil))
                kind = .stateRestore(state: restored, json: [:])
            case 13: kind = random.percent(50) ? .sessionEnd : .modalPresent(modal: stack, style: nil)
            case 0: kind = .sceneOpen
            case 1: kind = random.percent(30) ? .sceneClose : .stackPopToRoot(stack: stack)
            case 2, 3: kind = .stackPop(stack: stack, count: random.int(in: 1...2))
            case 4: kind = .stackSet(stack: stack, path: [RouteValue(type: "Set", id: "\(seq)")])
            case 5: kind = .tabSelect(tab: stack)
            default: kind = .stackPush(stack: stack, value: RouteValue(type: "Recipe", id: "\(seq % 7)"))
            }
            out.append(Event(session: "s", seq: seq, t: t, scene: scene == "main" ? nil : scene, kind: kind))
        }
        return out
    }

    @Test(arguments: [["main"], ["main", "second"], ["main", "second", "third", "a-scene-id-longer-than-sixteen"]])
    func foldingIsApplyingEachEventToThePlainState(scenes: [String]) {
        let events = Self.events(scenes)
        var projector = NavigationProjector(session: "s")
        var plain = NavigationState(session: "s")
        var handedOut: [(position: Int, state: NavigationState)] = []
        for (n, event) in events.enumerated() {
            #expect(projector.apply(event) == plain.apply(event), "anomalies of event \(n + 1): \(event.type)")
            #expect(projector.state == plain, "after event \(n + 1): \(event.type)")
            if n % 97 == 50 { handedOut.append((n + 1, projector.state)) }   // shares storage with the projector's
        }
        #expect(plain.anomalies[.afterEnd, default: 0] > 0 && plain.anomalies[.popUnderflow, default: 0] > 0)
        // The states handed out kept their values while the fold moved on, and
        // a projector continuing from one folds as the plain state does.
        for (position, state) in handedOut {
            var again = NavigationState(session: "s")
            for event in events.prefix(position) { again.apply(event) }
            #expect(state == again)
            var continued = NavigationProjector(state: state)
            var plainContinued = state
            for event in events.dropFirst(position).prefix(300) {
                #expect(continued.apply(event) == plainContinued.apply(event))
            }
            #expect(continued.state == plainContinued)
        }
    }

    /// The screen views of a fold, with plain applies in between, are the
    /// changes of the public visible screen before and after each event.
    @Test(arguments: [["main"], ["main", "second"]])
    func screenViewsAreTheChangesOfTheVisibleScreen(scenes: [String]) {
        var projector = NavigationProjector(session: "s")
        var naive = NavigationState(session: "s")
        var views: [ScreenView] = []
        var expected: [String] = []
        var random = SeededRandom(seed: 11)
        for event in Self.events(scenes) {
            if random.percent(10) {
                // Not a screen fold: the state moves on without views.
                _ = projector.apply(event)
                _ = naive.apply(event)
            } else {
                let before = naive.scenes[event.sceneID]?.screen ?? "root"
                _ = naive.apply(event)
                let after = naive.scenes[event.sceneID]?.screen ?? "root"
                let opensOrCloses: Bool
                switch event.kind {
                case .sceneOpen, .sceneClose: opensOrCloses = true
                default: opensOrCloses = false
                }
                if after != before && !opensOrCloses { expected.append("\(event.seq) \(after)") }
                let count = views.count
                projector.apply(event, screenViews: &views)
                for view in views[count...] where view.seq != event.seq { Issue.record("view of another event: \(view)") }
            }
            #expect(projector.state == naive)
        }
        #expect(views.map { "\($0.seq) \($0.screen)" } == expected)
        #expect(expected.count > 500)
    }

    /// A state is a plain value: equal fields, equal states and hashes, however folded.
    @Test func statesAreEqualByValue() {
        let events = Self.events(["main", "second"], count: 500)
        var projector = NavigationProjector(session: "s")
        for event in events { projector.apply(event) }
        var plain = NavigationState(session: "s")
        for event in events { plain.apply(event) }
        #expect(projector.state == plain)
        #expect(projector.state.hashValue == plain.hashValue)
        #expect(Set([projector.state, plain]).count == 1)
        var edited = plain
        edited.seq += 1
        #expect(edited != plain)
    }
}
