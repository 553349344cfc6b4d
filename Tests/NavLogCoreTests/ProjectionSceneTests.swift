import Testing
import NavLogCore

/// Scenes and the session: existence, lifecycle, seq/t, restore, size class,
/// session end, kinds without effect (docs/events.md, docs/state.md).
@Suite("Projection: scenes and session")
struct ProjectionSceneTests {
    @Test func emptyState() {
        let state = NavigationState(session: "s-1")
        #expect(state.seq == 0)
        #expect(state.t == nil)
        #expect(state.scenes.isEmpty)
        #expect(state.anomalies.isEmpty)
        #expect(!state.ended)
    }

    static let everyKindButClose: [EventKind] = [
        .sessionStart(app: ["version": .string("3.2")], device: nil), .sessionEnd, .sceneOpen,
        .tabsDefine(tabs: ["a"]), .tabSelect(tab: "a"), .tabVisibility(tab: "a", hidden: true),
        .stackPush(stack: "a", value: R("A")), .stackPop(stack: "a", count: nil), .stackPopToRoot(stack: "a"),
        .stackSet(stack: "a", path: []), .splitSelect(split: nil, column: .detail, selection: []),
        .splitVisibility(split: "main", visibility: .all), .modalPresent(modal: "m", style: nil),
        .modalDismiss(modal: "m"), .modalDismiss(modal: nil), .urlOpen(url: "app://x"),
        .stateRestore(state: SceneState(), json: [:]), .layoutChange(sizeClass: .compact),
        .mark(label: "purchase"), .other(type: "app.background"),
    ]

    @Test("every event but scene.close leaves its scene existing", arguments: everyKindButClose)
    func eventCreatesItsScene(kind: EventKind) {
        var state = NavigationState(session: "s-1")
        state.apply(Fixture.event(1, kind, scene: "window-2"))
        #expect(Array(state.scenes.keys) == ["window-2"])
        state.apply(Fixture.event(2, kind))
        #expect(Set(state.scenes.keys) == ["window-2", "main"])
    }

    @Test func absentSceneIsMain() {
        let state = Fixture.state([.mark(label: "x")])
        #expect(state.scenes == ["main": SceneState()])
    }

    @Test func sceneOpenCreatesAnEmptyScene() {
        let state = Fixture.state([.sceneOpen])
        #expect(state.scenes == ["main": SceneState()])
        #expect(state.scenes["main"]?.screen == "root")
    }

    @Test func sceneOpenOfAnExistingSceneChangesNothing() {
        let before = Fixture.state([.stackPush(stack: "main", value: R("Recipe", "pie"))])
        var after = before
        let anomalies = after.apply(Fixture.event(2, .sceneOpen))
        #expect(anomalies.isEmpty)
        #expect(after.scenes == before.scenes)
        #expect(after.scenes["main"]?.stacks["main"] == [R("Recipe", "pie")])
    }

    @Test func sceneCloseRemovesTheScene() {
        var state = Fixture.state([.stackPush(stack: "main", value: R("A"))])
        state.apply(Fixture.event(2, .stackPush(stack: "main", value: R("B")), scene: "w2"))
        state.apply(Fixture.event(3, .sceneClose))
        #expect(Array(state.scenes.keys) == ["w2"])
        #expect(state.seq == 3)
    }

    @Test func sceneCloseOfAnAbsentSceneChangesNothing() {
        let before = Fixture.state([.stackPush(stack: "main", value: R("A"))])
        var after = before
        let anomalies = after.apply(Fixture.event(2, .sceneClose, scene: "nowhere"))
        #expect(anomalies.isEmpty)
        #expect(after.scenes == before.scenes)
        #expect(after.anomalies.isEmpty)
    }

    @Test func aReCreatedSceneStartsEmpty() {
        let state = Fixture.state([
            .stackPush(stack: "main", value: R("A")), .layoutChange(sizeClass: .regular),
            .sceneClose, .mark(label: "back"),
        ])
        #expect(state.scenes == ["main": SceneState()])
    }

    @Test func seqAndTBecomeTheEvents() {
        var state = NavigationState(session: "s-1")
        state.apply(Event(session: "s-1", seq: 7, t: Fixture.t(30), kind: .mark(label: "a")))
        #expect(state.seq == 7)
        #expect(state.t == Fixture.t(30))
        // t need not increase: the state's t is the last event's, even if earlier.
        state.apply(Event(session: "s-1", seq: 9, t: Fixture.t(10), kind: .sceneClose))
        #expect(state.seq == 9)
        #expect(state.t == Fixture.t(10))
    }

    @Test func applyLeavesTheSessionIdAlone() {
        var state = NavigationState(session: "mine")
        state.apply(Fixture.event(1, .mark(label: "x")))
        #expect(state.session == "mine")
    }

    @Test("kinds without effect leave the scene as it was", arguments: [
        EventKind.sessionStart(app: ["version": .string("1")], device: ["os": .string("18")]),
        .urlOpen(url: "recipes://recipe/apple-pie"), .mark(label: "purchase"), .other(type: "app.background"),
    ])
    func kindWithoutEffect(kind: EventKind) {
        let kinds: [EventKind] = [
            .tabsDefine(tabs: ["home"]), .tabSelect(tab: "home"), .stackPush(stack: "home", value: R("A")),
            .modalPresent(modal: "m", style: .popover), .layoutChange(sizeClass: .compact),
        ]
        let before = Fixture.state(kinds)
        var after = before
        #expect(after.apply(Fixture.event(kinds.count + 1, kind)).isEmpty)
        #expect(after.scenes == before.scenes)
        #expect(after.anomalies.isEmpty)
        #expect(!after.ended)
    }

    @Test func layoutChangeSetsTheSizeClass() {
        #expect(Fixture.main([.sceneOpen]).sizeClass == nil)
        #expect(Fixture.main([.layoutChange(sizeClass: .compact)]).sizeClass == .compact)
        #expect(Fixture.main([.layoutChange(sizeClass: .compact), .layoutChange(sizeClass: .regular)]).sizeClass == .regular)
    }

    @Test func sessionEndMarksTheSessionEnded() {
        let state = Fixture.state([.mark(label: "a"), .sessionEnd])
        #expect(state.ended)
        #expect(state.anomalies.isEmpty)
        #expect(state.scenes == ["main": SceneState()])
    }

    @Test func eventsAfterTheEndAreStillApplied() {
        let state = Fixture.state([.sessionEnd, .stackPush(stack: "main", value: R("Late"))])
        #expect(state.scenes["main"]?.stacks["main"] == [R("Late")])
        #expect(state.anomalies == [.afterEnd: 1])
        #expect(state.ended)
    }

    @Test func stateRestoreReplacesOnlyItsScene() {
        let restored = SceneState(
            modals: [ModalPresentation(modal: "login", style: .fullScreenCover)], sizeClass: .compact,
            stacks: ["search": [R("Query", "pie")]],
            tabs: TabState(order: ["home", "search"], selected: "search"))
        var state = Fixture.state([
            .tabsDefine(tabs: ["home"]), .stackPush(stack: "home", value: R("A")),
            .splitSelect(split: nil, column: .sidebar, selection: [R("Folder")]),
        ])
        state.apply(Fixture.event(4, .stackPush(stack: "main", value: R("Other")), scene: "w2"))
        let other = state.scenes["w2"]
        state.apply(Fixture.event(5, .stateRestore(state: restored, json: [:])))
        #expect(state.scenes["main"] == restored)
        #expect(state.scenes["w2"] == other)
    }

    @Test func stateRestoreCreatesAnAbsentScene() {
        let restored = SceneState(stacks: ["main": [R("A")]])
        let state = Fixture.state([.stateRestore(state: restored, json: [:])], scene: "w3")
        #expect(state.scenes == ["w3": restored])
    }
}
