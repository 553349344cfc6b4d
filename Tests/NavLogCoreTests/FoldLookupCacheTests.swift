import Testing
@testable import NavLogCore
import NavLogSample

/// The fold remembers the scene and the stack it last changed, and where they
/// are in their dictionaries. Whatever else changes those dictionaries in
/// between (other events, code editing `scenes` or `stacks` directly, copies
/// of the state), the result is the fold without that memory.
@Suite("Fold lookup cache")
struct FoldLookupCacheTests {
    /// The same state with every remembered place forgotten.
    static func forgetting(_ state: NavigationState) -> NavigationState {
        var plain = state
        plain.lastScene = nil
        for id in Array(plain.sceneTable.keys) {
            plain.sceneTable[id]!.lastStack = nil
            plain.sceneTable[id]!.lastSplit = nil
        }
        return plain
    }

    static func events(_ scenes: [String]) -> [Event] {
        var random = SeededRandom(seed: 5)
        var out: [Event] = []
        let t = Timestamp(milliseconds: 1_790_000_000_000)
        for seq in 1...4000 {
            let scene = random.pick(scenes)
            let stack = random.pick(["home", "search", "a", "b", "x-long-stack-name-over-sixteen"])
            let kind: EventKind
            let split = random.pick(["main", "library", "a-split-id-longer-than-sixteen"])
            switch random.int(below: 12) {
            case 10:
                let column = random.pick(SplitColumn.allCases)
                kind = .splitSelect(split: split == "main" && random.percent(50) ? nil : split, column: column,
                                    selection: random.percent(20) ? [] : [RouteValue(type: "Item", id: "\(seq % 5)")])
            case 11: kind = .splitVisibility(split: split, visibility: random.pick(SplitVisibility.allCases))
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
    func theFoldMatchesTheFoldWithoutMemory(scenes: [String]) {
        var state = NavigationState(session: "s")
        var plain = NavigationState(session: "s")
        var copies: [NavigationState] = []
        for (n, event) in Self.events(scenes).enumerated() {
            #expect(state.apply(event) == plain.apply(event))
            plain = Self.forgetting(plain)
            // Edits from outside the fold, now and then, to both.
            let id = event.sceneID
            func onBoth(_ edit: (inout NavigationState) -> Void) {
                edit(&state)
                edit(&plain)
            }
            switch n % 97 {
            case 10: onBoth { $0.scenes["edited"] = SceneState(stacks: ["home": [RouteValue(type: "E")]]) }
            case 20: onBoth { $0.scenes.removeValue(forKey: "main") }
            case 30: onBoth { $0.scenes[id]?.stacks["fresh-\(n)"] = [RouteValue(type: "F")] }
            case 40: onBoth { $0.scenes[id]?.stacks.removeAll() }
            case 50: copies.append(state)  // shares storage until either side changes
            case 60: onBoth { $0.scenes[id]?.splits["fresh-\(n)"] = SplitState() }
            case 70: onBoth { $0.scenes[id]?.splits.removeAll() }
            case 80: onBoth { $0.scenes[id]?.splits = ["library": SplitState(detail: [RouteValue(type: "D")])] }
            default: break
            }
            #expect(state == plain, "after event \(n + 1): \(event.type)")
        }
        // The copies kept their own states while the original moved on.
        for copy in copies {
            #expect(copy == Self.forgetting(copy))
            var replay = copy
            var fresh = Self.forgetting(copy)
            for event in Self.events(scenes).prefix(300) {
                _ = replay.apply(event)
                _ = fresh.apply(event)
                fresh = Self.forgetting(fresh)
            }
            #expect(replay == fresh)
        }
    }

    /// The fold with screen views also remembers the visible screen of the
    /// scene it last changed. Plain applies and outside edits in between
    /// must make it forget: the views equal a comparison of the public
    /// screen before and after each event.
    @Test(arguments: [["main"], ["main", "second"]])
    func rememberedScreensMatchTheNaiveComparison(scenes: [String]) {
        var state = NavigationState(session: "s")
        var naive = NavigationState(session: "s")
        var views: [ScreenView] = []
        var expected: [String] = []
        var random = SeededRandom(seed: 11)
        for (n, event) in Self.events(scenes).enumerated() {
            if random.percent(10) {
                // Not a screen fold: the state moves on without views.
                _ = state.apply(event)
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
                state.apply(event, screenViews: &views)
                for view in views[count...] where view.seq != event.seq { Issue.record("view of another event: \(view)") }
            }
            if n % 53 == 7 {
                let id = event.sceneID
                let pushed = [RouteValue(type: "Edited", id: "\(n)")]
                state.scenes[id]?.stacks["main"] = pushed
                naive.scenes[id]?.stacks["main"] = pushed
                state.scenes[id]?.tabs.selected = nil
                naive.scenes[id]?.tabs.selected = nil
            }
            #expect(state == naive)
        }
        #expect(views.map { "\($0.seq) \($0.screen)" } == expected)
        #expect(expected.count > 500)
    }
}
