import Testing
import NavLogCore
import NavLogSample

/// Event effects: what `navlog replay` says each event changed, computed from
/// the states before and after it.
@Suite("Event effects")
struct EventEffectTests {
    /// The effects of `kind`, applied (to `scene`) after the `setup` kinds, as text.
    static func effects(_ setup: [EventKind], _ kind: EventKind, scene: String? = nil) -> [String] {
        var state = Fixture.state(setup, scene: scene)
        return state.applyDescribing(Fixture.event(setup.count + 1, kind, scene: scene)).map(\.description)
    }

    static let home: [EventKind] = [.tabsDefine(tabs: ["home", "search"]), .tabSelect(tab: "home")]
    static let pie = R("Recipe", "apple-pie")
    static let desserts = R("Category", "desserts")

    // MARK: Session and scene lifecycle

    @Test func sessionStartNamesTheAppVersionAndOpensTheScene() {
        #expect(Self.effects([], .sessionStart(app: ["version": .string("3.2.0")], device: nil))
                == ["session started (app 3.2.0)", "scene main opened"])
        #expect(Self.effects([.sceneOpen], .sessionStart(app: ["build": .number("7")], device: nil))
                == ["session started"])
    }

    @Test func sessionEndAndEventsAfterIt() {
        #expect(Self.effects([.sceneOpen], .sessionEnd) == ["session ended"])
        #expect(Self.effects([.sessionEnd], .sessionEnd) == ["anomaly after-end"])
        #expect(Self.effects([.sessionEnd], .stackPop(stack: "main", count: nil))
                == ["main → (empty)", "anomaly pop-underflow", "anomaly after-end"])
    }

    @Test func sceneOpenAndClose() {
        #expect(Self.effects([], .sceneOpen, scene: "scene-2") == ["scene scene-2 opened"])
        #expect(Self.effects([.sceneOpen], .sceneOpen, scene: "scene-2") == [])
        #expect(Self.effects([.sceneOpen], .sceneClose, scene: "scene-2") == ["scene scene-2 closed"])
        #expect(Self.effects([], .sceneClose, scene: "scene-2") == [])
    }

    @Test func aSceneNamedFirstByAnyEventOpens() {
        #expect(Self.effects([], .stackPush(stack: "main", value: Self.pie), scene: "w")
                == ["scene w opened", "pushed Recipe/apple-pie on main", "screen now Recipe/apple-pie"])
    }

    @Test func stateRestoreIsSummedUp() {
        let restored = SceneState(stacks: ["main": [Self.desserts, Self.pie]])
        let restore = EventKind.stateRestore(state: restored, json: [:])
        #expect(Self.effects([.sceneOpen], restore) == ["restored scene main", "screen now Recipe/apple-pie"])
        #expect(Self.effects([], restore, scene: "w")
                == ["scene w opened", "restored scene w", "screen now Recipe/apple-pie"])
        #expect(Self.effects([restore], restore) == ["restored scene main"])
    }

    // MARK: Tabs

    @Test func tabsDefineListsTheOrder() {
        #expect(Self.effects([.sceneOpen], .tabsDefine(tabs: ["home", "search", "home"])) == ["tabs home, search"])
        #expect(Self.effects([.tabsDefine(tabs: ["a"])], .tabsDefine(tabs: [])) == ["tabs (none)"])
        #expect(Self.effects([.tabsDefine(tabs: ["a"])], .tabsDefine(tabs: ["a"])) == [])
    }

    @Test func tabSelectNamesTheTabOnceAndTheScreen() {
        #expect(Self.effects(Self.home, .tabSelect(tab: "search")) == ["selected tab search", "screen now tab:search"])
        #expect(Self.effects(Self.home, .tabSelect(tab: "new")) == ["selected tab new", "screen now tab:new"])
        #expect(Self.effects(Self.home, .tabSelect(tab: "home")) == [])
    }

    @Test func tabVisibility() {
        #expect(Self.effects(Self.home, .tabVisibility(tab: "search", hidden: true)) == ["hid tab search"])
        #expect(Self.effects(Self.home + [.tabVisibility(tab: "search", hidden: true)],
                             .tabVisibility(tab: "search", hidden: false)) == ["showed tab search"])
        #expect(Self.effects(Self.home, .tabVisibility(tab: "search", hidden: false)) == [])
        #expect(Self.effects(Self.home, .tabVisibility(tab: "extra", hidden: true)) == ["hid tab extra"])
        #expect(Self.effects(Self.home, .tabVisibility(tab: "extra", hidden: false)) == ["added tab extra"])
    }

    @Test func selectingAHiddenTabIsAnAnomaly() {
        #expect(Self.effects(Self.home + [.tabVisibility(tab: "search", hidden: true)], .tabSelect(tab: "search"))
                == ["selected tab search", "screen now tab:search", "anomaly select-hidden"])
    }

    @Test func redefiningTheTabsForgetsHiddenOnesWithoutShowingThem() {
        #expect(Self.effects(Self.home + [.tabVisibility(tab: "search", hidden: true)], .tabsDefine(tabs: ["home"]))
                == ["tabs home"])
    }

    // MARK: Stacks

    @Test func pushNamesValueStackAndScreen() {
        #expect(Self.effects(Self.home, .stackPush(stack: "home", value: Self.pie))
                == ["pushed Recipe/apple-pie on home", "screen now Recipe/apple-pie"])
        // A stack that is not on screen: no screen change.
        #expect(Self.effects(Self.home, .stackPush(stack: "search", value: Self.pie))
                == ["pushed Recipe/apple-pie on search"])
    }

    @Test func popCountsWhatLeftTheStack() {
        let deep: [EventKind] = Self.home + [
            .stackPush(stack: "home", value: Self.desserts), .stackPush(stack: "home", value: Self.pie),
            .stackPush(stack: "home", value: R("Step", "3")),
        ]
        #expect(Self.effects(deep, .stackPop(stack: "home", count: 2))
                == ["popped 2 from home", "screen now Category/desserts"])
        #expect(Self.effects(deep, .stackPop(stack: "home", count: nil)) == ["popped 1 from home", "screen now Recipe/apple-pie"])
        #expect(Self.effects(deep, .stackPop(stack: "home", count: 5))
                == ["popped 3 from home", "screen now tab:home", "anomaly pop-underflow"])
    }

    @Test func poppingAnUnknownStackCreatesItEmpty() {
        #expect(Self.effects(Self.home, .stackPop(stack: "other", count: nil)) == ["other → (empty)", "anomaly pop-underflow"])
        #expect(Self.effects(Self.home + [.stackPopToRoot(stack: "other")], .stackPop(stack: "other", count: 1))
                == ["anomaly pop-underflow"])
    }

    @Test func popToRootAndSetGiveTheWholePath() {
        let deep: [EventKind] = Self.home + [
            .stackPush(stack: "home", value: Self.desserts), .stackPush(stack: "home", value: Self.pie),
        ]
        #expect(Self.effects(deep, .stackPopToRoot(stack: "home")) == ["home → (empty)", "screen now tab:home"])
        #expect(Self.effects(Self.home + [.stackPopToRoot(stack: "home")], .stackPopToRoot(stack: "home")) == [])
        #expect(Self.effects([.sceneOpen], .stackSet(stack: "main", path: [Self.desserts, Self.pie]))
                == ["main → Category/desserts › Recipe/apple-pie", "screen now Recipe/apple-pie"])
        #expect(Self.effects(deep, .stackSet(stack: "home", path: [])) == ["home → (empty)", "screen now tab:home"])
        #expect(Self.effects(deep, .stackSet(stack: "home", path: [Self.desserts, Self.pie])) == [])
    }

    // MARK: Splits

    @Test func splitSelectNamesColumnAndSelection() {
        #expect(Self.effects([.sceneOpen], .splitSelect(split: nil, column: .detail, selection: [R("Recipe", "x")]))
                == ["split main detail: Recipe/x", "screen now Recipe/x"])
        let sidebar = EventKind.splitSelect(split: "main", column: .sidebar, selection: [Self.desserts])
        #expect(Self.effects([sidebar], .splitSelect(split: "main", column: .content, selection: [R("Recipe", "a"), R("Recipe", "b")]))
                == ["split main content: Recipe/a, Recipe/b", "screen now Recipe/a"])
        #expect(Self.effects([sidebar], .splitSelect(split: "main", column: .sidebar, selection: []))
                == ["split main sidebar: (none)", "screen now split:main"])
    }

    @Test func splitVisibilityAndANewSplitWithNothingSet() {
        #expect(Self.effects([.splitSelect(split: nil, column: .sidebar, selection: [Self.desserts])],
                             .splitVisibility(split: "main", visibility: .detailOnly))
                == ["split main visibility detailOnly"])
        #expect(Self.effects([.sceneOpen], .splitVisibility(split: "main", visibility: .automatic))
                == ["split main created", "screen now split:main"])
        #expect(Self.effects([.sceneOpen], .splitSelect(split: "side", column: .detail, selection: [])) == ["split side created"])
    }

    // MARK: Modals

    @Test func presentNamesStyleAndModal() {
        #expect(Self.effects(Self.home, .modalPresent(modal: "settings", style: nil))
                == ["presented sheet settings", "screen now modal:settings"])
        #expect(Self.effects(Self.home, .modalPresent(modal: "scanner", style: .fullScreenCover))
                == ["presented fullScreenCover scanner", "screen now modal:scanner"])
        #expect(Self.effects(Self.home + [.modalPresent(modal: "settings", style: nil)], .modalPresent(modal: "settings", style: .alert))
                == ["anomaly present-duplicate"])
    }

    @Test func dismissNamesWhatLeftAboveIt() {
        let two: [EventKind] = Self.home + [
            .modalPresent(modal: "settings", style: nil), .modalPresent(modal: "compose", style: nil),
            .stackPush(stack: "compose", value: R("Draft")),
        ]
        #expect(Self.effects(two, .modalDismiss(modal: "settings"))
                == ["dismissed settings (and compose above it)", "screen now tab:home"])
        #expect(Self.effects(two + [.modalPresent(modal: "alert", style: .alert)], .modalDismiss(modal: "settings"))
                == ["dismissed settings (and compose, alert above it)", "screen now tab:home"])
        #expect(Self.effects(two, .modalDismiss(modal: nil)) == ["dismissed compose", "screen now modal:settings"])
        #expect(Self.effects(two, .modalDismiss(modal: "nope")) == ["anomaly dismiss-unknown"])
        #expect(Self.effects(Self.home, .modalDismiss(modal: nil)) == ["anomaly dismiss-empty"])
    }

    // MARK: Kinds without effect on state

    @Test func deepLinksMarksAndUnknownKindsAreDescribed() {
        #expect(Self.effects([.sceneOpen], .urlOpen(url: "recipes://recipe/lemon-tart")) == ["deep link recipes://recipe/lemon-tart"])
        #expect(Self.effects([.sceneOpen], .mark(label: "purchase")) == ["mark purchase"])
        #expect(Self.effects([.sceneOpen], .other(type: "app.background")) == ["unknown kind app.background (no effect)"])
        #expect(Self.effects([], .mark(label: "first")) == ["mark first", "scene main opened"])
    }

    @Test func emptyIdsAndLabelsStayVisible() {
        #expect(Self.effects([], .mark(label: ""), scene: "") == [#"mark """#, #"scene "" opened"#])
        #expect(Self.effects([.sceneOpen], .stackPush(stack: "", value: Self.pie)) == [#"pushed Recipe/apple-pie on """#])
    }

    @Test func layoutChange() {
        #expect(Self.effects([.sceneOpen], .layoutChange(sizeClass: .compact)) == ["size class compact"])
        #expect(Self.effects([.layoutChange(sizeClass: .compact)], .layoutChange(sizeClass: .compact)) == [])
    }

    @Test func effectsAreValuesNotOnlyText() {
        var state = Fixture.state(Self.home)
        let effects = state.applyDescribing(Fixture.event(3, .stackPop(stack: "home", count: 2)))
        #expect(effects == [.stackIs("home", path: []), .anomaly(.popUnderflow)])
        #expect(effects.map(\.isAnomaly) == [false, true])
    }

    // MARK: True to the projection

    /// Kinds that say something without changing state.
    static func changesState(_ effect: EventEffect) -> Bool {
        switch effect {
        case .sessionStarted, .deepLink, .mark, .unknownKind, .anomaly: false
        default: true
        }
    }

    /// Over generated sessions (every kind, anomalies, restores, several
    /// scenes): a state change is described exactly when the state changed,
    /// the screen exactly when a screen view is emitted, and the anomalies
    /// are the ones `apply` returned.
    @Test func effectsAgreeWithTheProjection() {
        let generator = SampleGenerator(.init(sessions: 60, seed: 99))
        var events = 0
        var anomalies = 0
        var kinds: Set<String> = []
        for session in generator.sessions() {
            var state = NavigationState(session: generator.sessionID(0))
            var viewing = state
            for event in session {
                let before = state
                let effects = state.applyDescribing(event)
                var views: [ScreenView] = []
                let returned = viewing.apply(event, screenViews: &views)
                let changed = before.scenes[event.sceneID] != state.scenes[event.sceneID] || before.ended != state.ended
                #expect(changed == effects.contains(where: Self.changesState), "\(event.type) seq \(event.seq): \(effects)")
                let screens = effects.compactMap { if case .screen(let s) = $0 { s } else { nil } }
                #expect(screens == views.map(\.screen), "\(event.type) seq \(event.seq)")
                #expect(effects.filter(\.isAnomaly) == returned.map(EventEffect.anomaly))
                events += 1
                anomalies += returned.count
                kinds.insert(event.type)
            }
        }
        #expect(events > 1000)
        #expect(anomalies > 0)
        let needed: Set = ["state.restore", "scene.open", "scene.close", "split.select", "modal.dismiss", "tab.visibility", "stack.set"]
        #expect(needed.isSubset(of: kinds), "not generated: \(needed.subtracting(kinds))")
    }
}
