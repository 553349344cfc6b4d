import Testing
import NavLogCore

/// TabView: tabs.define, tab.select, tab.visibility (docs/events.md).
@Suite("Projection: tabs")
struct ProjectionTabTests {
    @Test func defineSetsTheOrderExactlyDroppingDuplicates() {
        let tabs = Fixture.main([
            .tabsDefine(tabs: ["a", "b"]), .tabsDefine(tabs: ["search", "home", "search", "settings", "home"]),
        ]).tabs
        #expect(tabs.order == ["search", "home", "settings"])
        #expect(tabs.selected == nil)
    }

    @Test func defineWithManyTabsDropsDuplicates() {
        let names = (0..<40).map { "t\($0 % 25)" }
        let tabs = Fixture.main([.tabsDefine(tabs: names)]).tabs
        #expect(tabs.order == (0..<25).map { "t\($0)" })
    }

    @Test func defineForgetsHiddenTabsNotInIt() {
        let tabs = Fixture.main([
            .tabsDefine(tabs: ["home", "search", "settings"]),
            .tabVisibility(tab: "search", hidden: true), .tabVisibility(tab: "settings", hidden: true),
            .tabsDefine(tabs: ["settings", "home"]),
        ]).tabs
        #expect(tabs.order == ["settings", "home"])
        #expect(tabs.hidden == ["settings"])
        // A tab forgotten by define is not hidden when it comes back.
        let again = Fixture.main([
            .tabsDefine(tabs: ["home", "search"]), .tabVisibility(tab: "search", hidden: true),
            .tabsDefine(tabs: ["home"]), .tabsDefine(tabs: ["home", "search"]),
        ]).tabs
        #expect(again.hidden.isEmpty)
    }

    @Test func defineKeepsTheSelectionEvenOutsideTheNewOrder() {
        let kept = Fixture.main([.tabSelect(tab: "search"), .tabsDefine(tabs: ["home", "search"])]).tabs
        #expect(kept.selected == "search")
        let outside = Fixture.main([.tabSelect(tab: "search"), .tabsDefine(tabs: ["home"])]).tabs
        #expect(outside.selected == "search")
        #expect(outside.order == ["home"])
    }

    @Test func selectSelectsAndAddsANewTabToTheEnd() {
        let tabs = Fixture.main([
            .tabsDefine(tabs: ["home", "search"]), .tabSelect(tab: "profile"), .tabSelect(tab: "home"),
        ]).tabs
        #expect(tabs.order == ["home", "search", "profile"])
        #expect(tabs.selected == "home")
    }

    @Test func selectWithoutDefineBuildsTheOrder() {
        let tabs = Fixture.main([.tabSelect(tab: "b"), .tabSelect(tab: "a"), .tabSelect(tab: "b")]).tabs
        #expect(tabs.order == ["b", "a"])
        #expect(tabs.selected == "b")
    }

    @Test func selectingAHiddenTabSelectsItKeepsItHiddenAndIsAnAnomaly() {
        var state = Fixture.state([.tabsDefine(tabs: ["home", "settings"]), .tabVisibility(tab: "settings", hidden: true)])
        #expect(state.apply(Fixture.event(3, .tabSelect(tab: "settings"))) == [.selectHidden])
        let tabs = state.scenes["main"]!.tabs
        #expect(tabs.selected == "settings")
        #expect(tabs.hidden == ["settings"])
        #expect(state.anomalies == [.selectHidden: 1])
    }

    @Test func visibilityHidesAndShows() {
        let hidden = Fixture.main([.tabsDefine(tabs: ["a", "b", "c"]), .tabVisibility(tab: "c", hidden: true),
                                   .tabVisibility(tab: "a", hidden: true)]).tabs
        #expect(hidden.hidden == ["a", "c"])
        let shown = Fixture.main([.tabsDefine(tabs: ["a", "b"]), .tabVisibility(tab: "a", hidden: true),
                                  .tabVisibility(tab: "a", hidden: false), .tabVisibility(tab: "b", hidden: false)]).tabs
        #expect(shown.hidden.isEmpty)
        #expect(shown.order == ["a", "b"])
    }

    @Test func visibilityOfATabNotInTheOrderAppendsIt() {
        let tabs = Fixture.main([.tabsDefine(tabs: ["home"]), .tabVisibility(tab: "beta", hidden: true),
                                 .tabVisibility(tab: "gamma", hidden: false)]).tabs
        #expect(tabs.order == ["home", "beta", "gamma"])
        #expect(tabs.hidden == ["beta"])
    }

    @Test func visibilityKeepsTheSelection() {
        let tabs = Fixture.main([.tabSelect(tab: "a"), .tabVisibility(tab: "a", hidden: true)]).tabs
        #expect(tabs.selected == "a")
    }

    @Test func aHiddenTabKeepsItsStack() {
        let scene = Fixture.main([
            .tabsDefine(tabs: ["home", "settings"]), .tabSelect(tab: "settings"),
            .stackPush(stack: "settings", value: R("Account")), .tabSelect(tab: "home"),
            .tabVisibility(tab: "settings", hidden: true),
        ])
        #expect(scene.stacks["settings"] == [R("Account")])
        #expect(scene.tabs.hidden == ["settings"])
    }
}
