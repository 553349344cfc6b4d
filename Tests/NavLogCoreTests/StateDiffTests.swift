import Testing
import NavLogCore
import NavLogSample

/// `StateDiff`: empty exactly when the scenes are equal, and each part of it
/// rebuilds both sides (common prefix + tail).
@Suite("StateDiff")
struct StateDiffTests {
    static func states(seed: UInt64) -> [NavigationState] {
        let generator = SampleGenerator(.init(sessions: 1, seed: seed, eventsPerSession: 120...120))
        var state = NavigationState(session: "s")
        var out = [state]
        for event in generator.session(at: 0) {
            state.apply(event)
            out.append(state)
        }
        return out
    }

    @Test func emptyExactlyWhenScenesAreEqualAndPartsRebuildBothSides() {
        let a = Self.states(seed: 1), b = Self.states(seed: 2)
        var differing = 0, same = 0
        for i in stride(from: 0, to: a.count, by: 3) {
            for j in stride(from: 0, to: b.count, by: 7) {
                for (x, y) in [(a[i], b[j]), (a[i], a[j % a.count])] {
                    let diff = StateDiff(x, y)
                    #expect(diff.isEmpty == x.sameScenes(as: y))
                    if diff.isEmpty { same += 1; continue }
                    differing += 1
                    for scene in diff.scenes {
                        let sa = x.scenes[scene.scene] ?? SceneState(), sb = y.scenes[scene.scene] ?? SceneState()
                        #expect(scene.presence == (x.scenes[scene.scene] == nil ? .onlyB : y.scenes[scene.scene] == nil ? .onlyA : .both))
                        for stack in scene.stacks {
                            #expect(stack.values.common + stack.values.a == sa.stacks[stack.stack] ?? [])
                            #expect(stack.values.common + stack.values.b == sb.stacks[stack.stack] ?? [])
                            #expect(stack.values.a.first != stack.values.b.first || stack.values.a.isEmpty)
                        }
                        // Every stack that differs is listed; no equal one is.
                        let ids = Set(sa.stacks.keys).union(sb.stacks.keys).filter { sa.stacks[$0] != sb.stacks[$0] }
                        #expect(Set(scene.stacks.map(\.stack)) == ids)
                        if let m = scene.modals {
                            #expect(m.common + m.a == sa.modals && m.common + m.b == sb.modals)
                        } else {
                            #expect(sa.modals == sb.modals)
                        }
                        #expect((scene.selectedTab == nil) == (sa.tabs.selected == sb.tabs.selected))
                        #expect((scene.sizeClass == nil) == (sa.sizeClass == sb.sizeClass))
                        #expect(Set(scene.splits.map(\.split)) == Set(sa.splits.keys).union(sb.splits.keys).filter { sa.splits[$0] != sb.splits[$0] })
                    }
                }
            }
        }
        #expect(differing > 100 && same > 10)
    }

    @Test func stacksSplitIntoCommonPrefixAndTails() {
        func value(_ s: String) -> RouteValue { RouteValue(type: "R", id: s) }
        var a = NavigationState(session: "a"), b = NavigationState(session: "b")
        a.scenes["main"] = SceneState(stacks: ["home": ["x", "y", "z"].map(value), "only": []],
                                      tabs: TabState(order: ["home", "search"], selected: "home"))
        b.scenes["main"] = SceneState(stacks: ["home": ["x", "q"].map(value)],
                                      tabs: TabState(order: ["home", "search"], selected: "search"))
        b.scenes["other"] = SceneState()
        let diff = StateDiff(a, b)
        #expect(diff.scenes.map(\.scene) == ["main", "other"])
        let main = diff.scenes[0]
        #expect(main.stacks.count == 2)
        #expect(main.stacks[0].stack == "home" && main.stacks[0].values.common == [value("x")])
        #expect(main.stacks[0].values.a == [value("y"), value("z")] && main.stacks[0].values.b == [value("q")])
        #expect(main.stacks[1].stack == "only" && main.stacks[1].presence == .onlyA)
        #expect(main.selectedTab?.a == "home" && main.selectedTab?.b == "search")
        #expect(main.screen?.a == "R/z" && main.screen?.b == "tab:search")
        #expect(main.tabOrder == nil)
        #expect(diff.scenes[1].presence == .onlyB && diff.scenes[1].screen?.a == .some(nil))
        #expect(StateDiff(a, a).isEmpty)
        // Seq, time, session and anomalies are not part of the comparison.
        var later = a
        later.seq = 99
        later.anomalies[.popUnderflow] = 1
        #expect(StateDiff(a, later).isEmpty)
    }
}
