import Testing
@testable import NavLogCore

/// The tab model of iOS 18 and later (docs/tabs.md): `tabs.define`'s
/// sections and search tab, `tabs.customize`, `layout.change`'s tab
/// presentation, and the state fields they set.
@Suite("Projection: the iOS 18 tab model")
struct ProjectionTabModelTests {
    static let collections = TabSection(name: "Collections", tabs: ["favorites", "recent"])

    @Test func aCustomizationThatHidesTheSelectedTabKeepsTheSelectionWithoutAnomaly() {
        var state = Fixture.state([.tabsDefine(tabs: ["home", "library", "search"]), .tabSelect(tab: "library")])
        let anomalies = state.apply(Fixture.event(3, .tabsCustomize(order: ["search", "home", "library"], hidden: ["library"])))
        #expect(anomalies.isEmpty)
        #expect(state.anomalies.isEmpty)
        let tabs = state.scenes["main"]!.tabs
        #expect(tabs.selected == "library")
        #expect(tabs.hidden == ["library"])
        #expect(tabs.order == ["search", "home", "library"])
        #expect(tabs.customized)
        // The screen stays the selected tab's.
        #expect(state.scenes["main"]!.screen == "tab:library")
    }

    @Test func aCustomizationDecidesTheTabsItNamesAndLeavesTheOthers() {
        let tabs = Fixture.main([
            .tabsDefine(tabs: ["home", "library", "search", "settings"]),
            .tabVisibility(tab: "settings", hidden: true),   // the app's
            .tabVisibility(tab: "library", hidden: true),    // the app's
            // The user names library (shown) and home, search; not settings; adds a new tab.
            .tabsCustomize(order: ["search", "library", "home"], hidden: ["extra"]),
        ]).tabs
        #expect(tabs.order == ["search", "library", "home", "extra", "settings"])
        #expect(tabs.hidden == ["settings", "extra"])
        // A later tab.visibility of one tab overrides the user's choice for it.
        let shown = Fixture.main([
            .tabsDefine(tabs: ["home", "library"]), .tabsCustomize(order: ["home", "library"], hidden: ["library"]),
            .tabVisibility(tab: "library", hidden: false),
        ]).tabs
        #expect(shown.hidden.isEmpty)
        #expect(shown.customized)
    }

    @Test func aSectionNamingAnUnknownTabAddsItToTheOrder() {
        let tabs = Fixture.main([
            .tabsDefine(tabs: ["home", "search"], sections: [Self.collections], searchTab: "find"),
        ]).tabs
        #expect(tabs.order == ["home", "search", "favorites", "recent", "find"])
        #expect(tabs.sections == [Self.collections])
        #expect(tabs.searchTab == "find")
    }

    @Test func aDefineWithoutSectionsKeepsThemWithoutTheTabsItDrops() {
        let tabs = Fixture.main([
            .tabsDefine(tabs: ["home", "favorites", "recent", "search"], sections: [Self.collections], searchTab: "search"),
            .tabsDefine(tabs: ["home", "recent"]),
        ]).tabs
        #expect(tabs.order == ["home", "recent"])
        #expect(tabs.sections == [TabSection(name: "Collections", tabs: ["recent"])])
        #expect(tabs.searchTab == nil)
        let cleared = Fixture.main([
            .tabsDefine(tabs: ["home", "favorites"], sections: [Self.collections]), .tabsDefine(tabs: ["home"], sections: []),
        ]).tabs
        #expect(cleared.sections == [])
    }

    @Test func presentationSwitchesWithTheSizeClassAndNeverMovesTheScreen() {
        var state = Fixture.state([.tabsDefine(tabs: ["home", "search"]), .tabSelect(tab: "home")])
        let screen = state.scenes["main"]!.screen
        var views: [ScreenView] = []
        _ = state.apply(Fixture.event(3, .layoutChange(sizeClass: .compact, tabPresentation: .tabBar)), screenViews: &views)
        #expect(state.scenes["main"]!.tabs.presentation == .tabBar)
        _ = state.apply(Fixture.event(4, .layoutChange(sizeClass: .regular, tabPresentation: .sidebar)), screenViews: &views)
        #expect(state.scenes["main"]!.tabs.presentation == .sidebar)
        #expect(state.scenes["main"]!.sizeClass == .regular)
        // Without tabPresentation, the presentation is kept.
        _ = state.apply(Fixture.event(5, .layoutChange(sizeClass: .compact)), screenViews: &views)
        #expect(state.scenes["main"]!.tabs.presentation == .sidebar)
        #expect(state.scenes["main"]!.screen == screen)
        #expect(views.isEmpty)
    }

    @Test func newFieldsPrintOnlyOnceSet() throws {
        let old = Fixture.main([.tabsDefine(tabs: ["home"]), .tabSelect(tab: "home"), .layoutChange(sizeClass: .compact)])
        #expect(old.jsonValue.canonicalText.contains("\"tabs\":{\"hidden\":[],\"order\":[\"home\"],\"selected\":\"home\"}"))
        let new = Fixture.main([
            .tabsDefine(tabs: ["home"], sections: [TabSection(name: "Main", tabs: ["home"])], searchTab: "search"),
            .layoutChange(sizeClass: .regular, tabPresentation: .sidebar),
            .tabsCustomize(order: ["search", "home"], hidden: ["search"]),
        ])
        let text = new.tabs.jsonValue.canonicalText
        #expect(text == #"{"customized":true,"hidden":["search"],"order":["search","home"],"presentation":"sidebar","searchTab":"search","sections":[{"name":"Main","tabs":["home"]}],"selected":null}"#)
    }

    /// A `state.restore` carrying every new field, read from its line: the
    /// scene is the one that printed it, and it survives a checkpoint.
    @Test func aStateRestoreCarriesAllOfThem() throws {
        let line = #"{"seq":1,"session":"s-1","state":{"tabs":{"customized":true,"hidden":["library"],"order":["home","library"],"presentation":"sidebar","searchTab":"search","sections":[{"name":"Collections","tabs":["favorites"]}],"selected":"library"}},"t":"2026-11-20T10:00:01.000Z","type":"state.restore"}"#
        let event = try EventParser.parse(line)
        var state = NavigationState(session: "s-1")
        state.apply(event)
        let tabs = state.scenes["main"]!.tabs
        #expect(tabs.order == ["home", "library", "favorites", "search"])
        #expect(tabs.hidden == ["library"])
        #expect(tabs.selected == "library")
        #expect(tabs.sections == [TabSection(name: "Collections", tabs: ["favorites"])])
        #expect(tabs.searchTab == "search")
        #expect(tabs.presentation == .sidebar)
        #expect(tabs.customized)
        #expect(event.canonicalLine == line)
        let checkpoint = try NavigationState(json: state.checkpointJSON)
        #expect(checkpoint == state)
        let printed = try NavigationState(json: state.jsonValue)
        #expect(printed.sameScenes(as: state))
        // `customized: false` is the same as absent.
        let plain = try EventParser.parse(#"{"session":"s","state":{"tabs":{"customized":false}},"t":"2026-11-20T10:00:00Z","type":"state.restore"}"#)
        if case .stateRestore(let scene, _) = plain.kind { #expect(scene == SceneState()) } else { Issue.record("not a restore") }
    }

    @Test func theNewKindsAreValidatedByTheirRow() {
        func reason(_ line: String) -> String? {
            do { _ = try EventParser.parse(line); return nil } catch { return error.description }
        }
        let head = #"{"session":"s","t":"2026-11-20T10:00:00Z","#
        #expect(reason(head + #""type":"tabs.customize","order":["a"],"hidden":true}"#)?.contains("hidden") == true)
        #expect(reason(head + #""type":"tabs.customize","order":["a"]}"#)?.contains("hidden") == true)
        #expect(reason(head + #""type":"tabs.customize","hidden":[]}"#)?.contains("order") == true)
        #expect(reason(head + #""type":"tab.visibility","tab":"a","hidden":["a"]}"#)?.contains("hidden") == true)
        #expect(reason(head + #""type":"tabs.define","tabs":[],"sections":[{"name":"x"}]}"#)?.contains("sections[0].tabs") == true)
        #expect(reason(head + #""type":"tabs.define","tabs":[],"searchTab":3}"#)?.contains("searchTab") == true)
        #expect(reason(head + #""type":"layout.change","sizeClass":"compact","tabPresentation":"floating"}"#)?.contains("tabPresentation") == true)
        #expect(reason(head + #""type":"tabs.customize","order":["a"],"hidden":[]}"#) == nil)
        #expect(reason(head + #""type":"tab.visibility","tab":"a","hidden":true}"#) == nil)
    }

    /// Each new form is written canonically, read back to the same event,
    /// and folds from its line summary (where one is made) as from the event.
    @Test func canonicalLinesRoundTripAndFoldAlike() throws {
        let kinds: [EventKind] = [
            .tabsDefine(tabs: ["home", "search"], sections: [Self.collections], searchTab: "search"),
            .tabsDefine(tabs: ["home", "search"], searchTab: "search"),
            .tabsCustomize(order: ["search", "home"], hidden: ["home"]),
            .layoutChange(sizeClass: .compact, tabPresentation: .tabBar),
            .tabSelect(tab: "home"),
        ]
        var summarizer = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        var pair = CanonicalLineSummaryTests.Pair(Fixture.session)
        for event in Fixture.events(kinds) {
            let line = event.canonicalLine
            let read = try EventParser.parse(line)
            #expect(read == event, "\(line)")
            var general = CanonicalWriter()
            general.writeGeneral(event)
            #expect(general.string == line)
            CanonicalLineSummaryTests.check(Array(line.utf8), &pair, summarizer: &summarizer, parser: &parser)
        }
        #expect(pair.applied.scenes["main"]!.tabs.searchTab == "search")
    }

    @Test func effectsNameEachChange() {
        func effects(_ before: [EventKind], _ kind: EventKind) -> [String] {
            var state = Fixture.state(before)
            return state.applyDescribing(Fixture.event(before.count + 1, kind)).map(\.description)
        }
        let base: [EventKind] = [.tabsDefine(tabs: ["home", "library"]), .tabSelect(tab: "library")]
        #expect(effects(base, .tabsCustomize(order: ["library", "home"], hidden: ["library"]))
                == ["user customization", "tabs library, home", "hid tab library"])
        #expect(effects(base, .tabsDefine(tabs: ["home", "library"], sections: [TabSection(name: "Mine", tabs: ["library"])], searchTab: "search"))
                == ["tabs home, library, search", "sections Mine (library)", "search tab search"])
        #expect(effects(base, .layoutChange(sizeClass: .regular, tabPresentation: .sidebar))
                == ["size class regular", "tabs as sidebar"])
        #expect(effects(base + [.layoutChange(sizeClass: .regular, tabPresentation: .sidebar)],
                        .layoutChange(sizeClass: .compact, tabPresentation: .tabBar))
                == ["size class compact", "tabs as tabBar"])
    }

    @Test func diffAndBlameSayWhoHidATab() {
        let a = Fixture.state([.tabsDefine(tabs: ["home", "library"])])
        let events = Fixture.events([
            .tabsDefine(tabs: ["home", "library", "settings"]), .tabVisibility(tab: "settings", hidden: true),
            .tabsCustomize(order: ["library", "home"], hidden: ["library"]),
            .layoutChange(sizeClass: .regular, tabPresentation: .sidebar),
        ])
        let b = NavigationState(session: Fixture.session, folding: events)
        let scene = StateDiff(a, b).scenes[0]
        #expect(scene.customized == DiffChange(false, true))
        #expect(scene.tabPresentation == DiffChange(nil, .sidebar))
        #expect(scene.hiddenTabs == DiffChange([], ["library", "settings"]))
        #expect(scene.searchTab == nil)
        let json = StateDiff(a, b).jsonValue.canonicalText
        #expect(json.contains(#""customized":{"a":false,"b":true}"#))
        #expect(json.contains(#""presentation":{"a":null,"b":"sidebar"}"#))

        var blame = StateBlame(session: Fixture.session)
        for event in events { blame.apply(event) }
        let origins = blame.scenes["main"]!.hiddenTabs
        #expect(origins["library"]?.event.seq == 3)
        #expect(origins["settings"]?.event.seq == 2)
        // A tab the user's customization lists as hidden is the user's, even when hidden already.
        var again = blame
        again.apply(Fixture.event(5, .tabsCustomize(order: ["library", "home", "settings"], hidden: ["library", "settings"])))
        #expect(again.scenes["main"]!.hiddenTabs["settings"]?.event.seq == 5)
    }
}
