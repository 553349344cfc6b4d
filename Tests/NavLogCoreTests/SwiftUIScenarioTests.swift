import Testing
import NavLogCore

/// Whole SwiftUI navigation behaviours, recorded as events and projected.
@Suite("SwiftUI scenarios")
struct SwiftUIScenarioTests {
    /// Folds events, collecting screen views.
    static func run(_ events: [Event]) -> (state: NavigationState, screens: [String]) {
        var state = NavigationState(session: Fixture.session)
        var views: [ScreenView] = []
        for event in events { state.apply(event, screenViews: &views) }
        return (state, views.map(\.screen))
    }

    @Test func perTabStacksSurviveSwitchingTabs() {
        let (state, screens) = Self.run(Fixture.events([
            .tabsDefine(tabs: ["home", "search"]), .tabSelect(tab: "home"),
            .stackPush(stack: "home", value: R("Category", "desserts")),
            .stackPush(stack: "home", value: R("Recipe", "apple-pie")),
            .tabSelect(tab: "search"), .stackPush(stack: "search", value: R("Query", "pie")),
            .tabSelect(tab: "home"),
        ]))
        let scene = state.scenes["main"]!
        #expect(scene.stacks == [
            "home": [R("Category", "desserts"), R("Recipe", "apple-pie")], "search": [R("Query", "pie")],
        ])
        #expect(screens == ["tab:home", "Category/desserts", "Recipe/apple-pie", "tab:search", "Query/pie",
                            "Recipe/apple-pie"])
    }

    @Test func aHiddenTabKeepsItsStackAndComesBackWithIt() {
        let (state, screens) = Self.run(Fixture.events([
            .tabsDefine(tabs: ["home", "beta"]), .tabSelect(tab: "beta"),
            .stackPush(stack: "beta", value: R("Experiment", "x")), .tabSelect(tab: "home"),
            .tabVisibility(tab: "beta", hidden: true), .tabVisibility(tab: "beta", hidden: false),
            .tabSelect(tab: "beta"),
        ]))
        #expect(state.scenes["main"]?.stacks["beta"] == [R("Experiment", "x")])
        #expect(state.anomalies.isEmpty)
        #expect(screens.last == "Experiment/x")
    }

    @Test func aDeepLinkPopsToRootAndPushesTwoValues() {
        var events = Fixture.events([
            .tabsDefine(tabs: ["home", "search"]), .tabSelect(tab: "search"),
            .stackPush(stack: "search", value: R("Query", "cake")),
            .urlOpen(url: "recipes://home/desserts/apple-pie"),
        ])
        events += [
            Fixture.event(5, .tabSelect(tab: "home"), cause: 4),
            Fixture.event(6, .stackPopToRoot(stack: "home"), cause: 4),
            Fixture.event(7, .stackPush(stack: "home", value: R("Category", "desserts")), cause: 4),
            Fixture.event(8, .stackPush(stack: "home", value: R("Recipe", "apple-pie")), cause: 4),
        ]
        var state = NavigationState(session: Fixture.session)
        var views: [ScreenView] = []
        for event in events { state.apply(event, screenViews: &views) }
        let scene = state.scenes["main"]!
        #expect(scene.tabs.selected == "home")
        #expect(scene.stacks["home"] == [R("Category", "desserts"), R("Recipe", "apple-pie")])
        #expect(scene.stacks["search"] == [R("Query", "cake")])
        #expect(scene.screen == "Recipe/apple-pie")
        // url.open itself shows nothing; the caused events do. popToRoot of the
        // empty home stack leaves `tab:home` as it was.
        #expect(views.map(\.seq) == [2, 3, 5, 7, 8])
        #expect(views.suffix(3).map(\.screen) == ["tab:home", "Category/desserts", "Recipe/apple-pie"])
    }

    @Test func stackSetReplacesAPath() {
        let (state, screens) = Self.run(Fixture.events([
            .stackPush(stack: "main", value: R("Inbox")), .stackPush(stack: "main", value: R("Message", "1")),
            .stackSet(stack: "main", path: [R("Settings"), R("Account", "me"), R("Password")]),
            .stackPop(stack: "main", count: nil),
        ]))
        #expect(state.scenes["main"]?.stacks["main"] == [R("Settings"), R("Account", "me")])
        #expect(screens == ["Inbox", "Message/1", "Password", "Account/me"])
    }

    @Test func aTabHostingASplitViewWhoseDetailStackDrillsDown() {
        // Tab `mail` hosts NavigationSplitView `mail`; its detail column's
        // NavigationStack is stack `mail`.
        let (state, screens) = Self.run(Fixture.events([
            .tabsDefine(tabs: ["mail", "calendar"]), .tabSelect(tab: "mail"),
            .splitSelect(split: "mail", column: .sidebar, selection: [R("Mailbox", "inbox")]),
            .splitSelect(split: "mail", column: .content, selection: [R("Message", "42")]),
            .stackPush(stack: "mail", value: R("Attachment", "a1")),
            .stackPush(stack: "mail", value: R("Preview", "page-2")),
            .stackPop(stack: "mail", count: 2),
            .tabSelect(tab: "calendar"),
        ]))
        #expect(screens == ["tab:mail", "Mailbox/inbox", "Message/42", "Attachment/a1", "Preview/page-2",
                            "Message/42", "tab:calendar"])
        #expect(state.scenes["main"]?.splits["mail"] == SplitState(
            sidebar: [R("Mailbox", "inbox")], content: [R("Message", "42")], visibility: .automatic))
    }

    @Test func aThreeColumnSplitWithMultiSelect() {
        let (state, screens) = Self.run(Fixture.events([
            .splitVisibility(split: "main", visibility: .all),
            .splitSelect(split: nil, column: .sidebar, selection: [R("Folder", "work")]),
            .splitSelect(split: nil, column: .content, selection: [R("Note", "3"), R("Note", "1"), R("Note", "7")]),
            .splitSelect(split: nil, column: .detail, selection: [R("Note", "3")]),
            .splitSelect(split: nil, column: .detail, selection: []),
            .splitSelect(split: nil, column: .content, selection: []),
        ]))
        #expect(screens == ["split:main", "Folder/work", "Note/3", "Folder/work"])
        #expect(state.scenes["main"]?.splits["main"] == SplitState(sidebar: [R("Folder", "work")], visibility: .all))
    }

    @Test func aSheetOverASheetDismissingTheLowerDismissesBoth() {
        let (state, screens) = Self.run(Fixture.events([
            .stackPush(stack: "main", value: R("Recipe", "pie")),
            .modalPresent(modal: "share", style: .sheet), .modalPresent(modal: "contacts", style: .sheet),
            .modalDismiss(modal: "share"),
        ]))
        #expect(state.scenes["main"]?.modals.isEmpty == true)
        #expect(state.anomalies.isEmpty)
        #expect(screens == ["Recipe/pie", "modal:share", "modal:contacts", "Recipe/pie"])
    }

    @Test func aSheetWithItsOwnStackIsTheVisibleScreen() {
        let (state, screens) = Self.run(Fixture.events([
            .tabSelect(tab: "home"), .stackPush(stack: "home", value: R("Recipe", "pie")),
            .modalPresent(modal: "compose", style: .sheet),
            .stackPush(stack: "compose", value: R("Recipient", "ann")),
            .stackPush(stack: "home", value: R("Behind")),
            .stackPush(stack: "compose", value: R("Subject")),
            .modalDismiss(modal: nil),
        ]))
        #expect(screens == ["tab:home", "Recipe/pie", "modal:compose", "Recipient/ann", "Subject", "Behind"])
        #expect(state.scenes["main"]?.stacks["compose"] == [R("Recipient", "ann"), R("Subject")])
    }

    @Test func twoScenesHaveIndependentState() {
        let (state, _) = Self.run([
            Fixture.event(1, .tabSelect(tab: "home"), scene: "left"),
            Fixture.event(2, .tabSelect(tab: "search"), scene: "right"),
            Fixture.event(3, .stackPush(stack: "home", value: R("A")), scene: "left"),
            Fixture.event(4, .stackPush(stack: "home", value: R("B")), scene: "right"),
            Fixture.event(5, .modalPresent(modal: "m", style: nil), scene: "right"),
            Fixture.event(6, .layoutChange(sizeClass: .compact), scene: "left"),
        ])
        let left = state.scenes["left"]!, right = state.scenes["right"]!
        #expect(left.stacks == ["home": [R("A")]])
        #expect(right.stacks == ["home": [R("B")]])
        #expect(left.screen == "A")
        #expect(right.screen == "modal:m")
        #expect(left.sizeClass == .compact)
        #expect(right.sizeClass == nil)
        #expect(left.modals.isEmpty)
    }

    @Test func stateRestoreReplacesAScene() throws {
        let object = try #require(try JSONValue.parse(#"""
            {"modals":[],"sizeClass":"regular","splits":{},
             "stacks":{"home":[{"type":"Category","id":"desserts"}],"search":[]},
             "tabs":{"hidden":[],"order":["home","search"],"selected":"home"}}
            """#).objectValue)
        let (restored, json) = try SceneState.decodeRestore(object)
        let (state, screens) = Self.run(Fixture.events([
            .tabSelect(tab: "search"), .stackPush(stack: "search", value: R("Query", "x")),
            .modalPresent(modal: "m", style: nil),
            .stateRestore(state: restored, json: json),
        ]))
        #expect(state.scenes["main"] == restored)
        #expect(screens == ["tab:search", "Query/x", "modal:m", "Category/desserts"])
    }
}

extension JSONValue {
    /// The members, when this is an object.
    var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
