import Testing
import NavLogCore
import NavLogTestSupport

/// Screen views (docs/state.md, docs/events.md): one each time an event changes its
/// scene's visible screen.
@Suite("Screen views")
struct ScreenViewTests {
    static func views(_ events: [Event]) -> [ScreenView] {
        var state = NavigationState(session: Fixture.session)
        var views: [ScreenView] = []
        for event in events { state.apply(event, screenViews: &views) }
        return views
    }

    static func screens(_ kinds: [EventKind]) -> [String] { views(Fixture.events(kinds)).map(\.screen) }

    @Test func aViewCarriesTheEventAndTheNewScreen() {
        let views = Self.views([
            Fixture.event(1, .sceneOpen, scene: "w"),
            Fixture.event(2, .stackPush(stack: "main", value: R("Recipe", "pie")), scene: "w"),
        ])
        #expect(views == [ScreenView(session: "s-1", seq: 2, t: Fixture.t(2), scene: "w", screen: "Recipe/pie")])
    }

    @Test func eachChangeEmitsOneViewIncludingBackToRoot() {
        #expect(Self.screens([
            .stackPush(stack: "main", value: R("A")), .stackPush(stack: "main", value: R("B")),
            .stackPop(stack: "main", count: nil), .stackPopToRoot(stack: "main"),
        ]) == ["A", "B", "A", "root"])
    }

    @Test func eventsThatLeaveTheScreenEmitNothing() {
        let views = Self.views(Fixture.events([
            .stackPush(stack: "main", value: R("A")),
            .stackPush(stack: "other", value: R("Hidden")),
            .mark(label: "x"), .urlOpen(url: "app://a"), .layoutChange(sizeClass: .compact),
            .tabsDefine(tabs: ["a", "b"]), .tabVisibility(tab: "a", hidden: true),
            .sessionStart(app: nil, device: nil), .other(type: "custom"),
            .stackSet(stack: "main", path: [R("A")]),
            .modalDismiss(modal: nil), .stackPop(stack: "empty", count: 3),
            .splitSelect(split: "side", column: .detail, selection: [R("X")]),
            .splitVisibility(split: "main", visibility: .all),
            .splitVisibility(split: "main", visibility: .detailOnly),
            .sessionEnd,
        ]))
        #expect(views.map(\.seq) == [1])
        #expect(views.map(\.screen) == ["A"])
    }

    @Test func splitVisibilityCanChangeTheScreenByCreatingTheSplit() {
        #expect(Self.screens([.splitVisibility(split: "main", visibility: .all)]) == ["split:main"])
        #expect(Self.screens([.tabSelect(tab: "mail"), .splitVisibility(split: "mail", visibility: .all)])
            == ["tab:mail", "split:mail"])
        #expect(Self.screens([.stackPush(stack: "main", value: R("A")), .splitVisibility(split: "main", visibility: .all)])
            == ["A"])
    }

    @Test func aNewSceneStartsAtRootWithoutAView() {
        #expect(Self.views(Fixture.events([.sceneOpen, .mark(label: "m"), .sessionStart(app: nil, device: nil)])).isEmpty)
        // The first event of a scene that moves it off root emits a view.
        #expect(Self.screens([.tabSelect(tab: "home")]) == ["tab:home"])
        // An event that creates a scene and leaves it at root emits none.
        #expect(Self.screens([.stackPush(stack: "home", value: R("A"))]).isEmpty)
    }

    @Test func sceneCloseEmitsNoneAndAReCreatedSceneStartsAtRoot() {
        #expect(Self.screens([
            .stackPush(stack: "main", value: R("A")), .sceneClose,
            .sceneOpen, .stackPush(stack: "main", value: R("A")), .sceneClose,
            .stackPush(stack: "main", value: R("A")),
        ]) == ["A", "A", "A"])
    }

    @Test func stateRestoreEmitsWhenTheScreenChanges() {
        let restored = SceneState(stacks: ["main": [R("Restored")]])
        #expect(Self.screens([.stackPush(stack: "main", value: R("A")), .stateRestore(state: restored, json: [:])])
            == ["A", "Restored"])
        #expect(Self.screens([.stackPush(stack: "main", value: R("Restored")), .stateRestore(state: restored, json: [:])])
            == ["Restored"])
    }

    @Test func onlyTheEventsSceneCanChange() {
        let views = Self.views([
            Fixture.event(1, .stackPush(stack: "main", value: R("A")), scene: "left"),
            Fixture.event(2, .stackPush(stack: "main", value: R("B")), scene: "right"),
            Fixture.event(3, .stackPop(stack: "main", count: nil), scene: "left"),
        ])
        #expect(views.map { "\($0.scene):\($0.screen)" } == ["left:A", "right:B", "left:root"])
    }

    @Test func aDifferentScreenWithTheSameNameIsNoChange() {
        // Tab `home` with an empty stack shows `tab:home`; a route value whose
        // type is "tab:home" shows the same name.
        #expect(Self.screens([.tabSelect(tab: "home"), .stackPush(stack: "home", value: R("tab:home"))]) == ["tab:home"])
        #expect(Self.screens([.stackPush(stack: "main", value: R("A/b")), .stackSet(stack: "main", path: [R("A", "b")])])
            == ["A/b"])
    }

    @Test func anomalousEventsStillTrackScreens() {
        var state = Fixture.state([.sessionEnd])
        var views: [ScreenView] = []
        #expect(state.apply(Fixture.event(2, .tabVisibility(tab: "t", hidden: true)), screenViews: &views) == [.afterEnd])
        #expect(state.apply(Fixture.event(3, .tabSelect(tab: "t")), screenViews: &views) == [.selectHidden, .afterEnd])
        #expect(views.map(\.screen) == ["tab:t"])
        #expect(state.anomalies == [.afterEnd: 2, .selectHidden: 1])
    }

    static func randomKind(_ g: inout SeededGenerator) -> EventKind {
        let ids = ["main", "home", "mail", "compose"]
        let id = ids[Int(g.next() % 4)]
        let value = R(["A", "B", "tab:home"][Int(g.next() % 3)], g.next() % 2 == 0 ? nil : "\(g.next() % 3)")
        switch g.next() % 16 {
        case 0, 1, 2: return .stackPush(stack: id, value: value)
        case 3, 4: return .stackPop(stack: id, count: g.next() % 3 == 0 ? 2 : nil)
        case 5: return .stackPopToRoot(stack: id)
        case 6: return .stackSet(stack: id, path: [value, value])
        case 7: return .tabSelect(tab: id)
        case 8: return .splitSelect(split: g.next() % 2 == 0 ? nil : id, column: SplitColumn.allCases[Int(g.next() % 3)],
                                    selection: g.next() % 3 == 0 ? [] : [value])
        case 9: return .modalPresent(modal: id, style: nil)
        case 10: return .modalDismiss(modal: g.next() % 2 == 0 ? nil : id)
        case 11: return [.sceneOpen, .sceneClose][Int(g.next() % 2)]
        case 12: return .tabVisibility(tab: id, hidden: g.next() % 2 == 0)
        case 13: return .stateRestore(state: SceneState(stacks: [id: [value]], tabs: TabState(selected: id)), json: [:])
        case 14: return .splitVisibility(split: id, visibility: .all)
        default: return .mark(label: "m")
        }
    }

    @Test("views match comparing the public screen before and after every event", arguments: [1, 2, 3, 42] as [UInt64])
    func matchesNaiveComparison(seed: UInt64) {
        var g = SeededGenerator(seed: seed)
        let scenes = ["main", "w2"]
        let events = (1...3000).map { Fixture.event($0, Self.randomKind(&g), scene: scenes[Int(g.next() % 2)]) }
        var naive = NavigationState(session: "s-1")
        var expected: [ScreenView] = []
        for event in events {
            let before = naive.scenes[event.sceneID]?.screen ?? "root"
            naive.apply(event)
            if case .sceneClose = event.kind { continue }
            if case .sceneOpen = event.kind { continue }
            let after = naive.scenes[event.sceneID]!.screen
            if after != before {
                expected.append(ScreenView(session: event.session, seq: event.seq, t: event.t,
                                           scene: event.sceneID, screen: after))
            }
        }
        var tracked = NavigationState(session: "s-1")
        var views: [ScreenView] = []
        for event in events { tracked.apply(event, screenViews: &views) }
        #expect(views.count == expected.count)
        if let i = zip(views, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            #expect(views[i] == expected[i], "first difference at view \(i)")
        }
        #expect(tracked == naive)
        #expect(expected.count > 300)
    }
}
