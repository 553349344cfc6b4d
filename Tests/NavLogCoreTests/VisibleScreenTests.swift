import Testing
import NavLogCore

/// The visible screen of a scene (docs/state.md, "The visible screen").
@Suite("Visible screen")
struct VisibleScreenTests {
    static func screen(_ kinds: [EventKind]) -> String { Fixture.main(kinds).screen }

    @Test func aNewSceneIsRoot() {
        #expect(SceneState().screen == "root")
        #expect(Self.screen([.sceneOpen]) == "root")
    }

    @Test func screenNameIsTypeOrTypeSlashId() {
        #expect(Self.screen([.stackPush(stack: "main", value: R("Settings"))]) == "Settings")
        #expect(Self.screen([.stackPush(stack: "main", value: R("Recipe", "apple-pie"))]) == "Recipe/apple-pie")
        #expect(Self.screen([.stackPush(stack: "main", value: R("Recipe", "", data: .bool(true)))]) == "Recipe/")
    }

    // MARK: Rule 4: stack main, else root

    @Test func topOfStackMain() {
        #expect(Self.screen([.stackPush(stack: "main", value: R("A")), .stackPush(stack: "main", value: R("B"))]) == "B")
        #expect(Self.screen([.stackPush(stack: "main", value: R("A")), .stackPopToRoot(stack: "main")]) == "root")
    }

    @Test func otherStacksDoNotShowWithoutTheirContainer() {
        #expect(Self.screen([.stackPush(stack: "home", value: R("A"))]) == "root")
        #expect(Self.screen([.stackPush(stack: "compose", value: R("A")), .tabsDefine(tabs: ["home"])]) == "root")
    }

    // MARK: Rule 1: modals

    @Test func aModalWithoutAStackIsModalId() {
        #expect(Self.screen([.stackPush(stack: "main", value: R("A")), .modalPresent(modal: "settings", style: nil)])
            == "modal:settings")
    }

    @Test func aModalWithAStackShowsItsTop() {
        #expect(Self.screen([
            .modalPresent(modal: "compose", style: nil), .stackPush(stack: "compose", value: R("Recipient", "ann")),
        ]) == "Recipient/ann")
        #expect(Self.screen([
            .modalPresent(modal: "compose", style: nil), .stackPush(stack: "compose", value: R("A")),
            .stackPop(stack: "compose", count: nil),
        ]) == "modal:compose")
    }

    @Test func theTopModalWinsOverLowerModals() {
        #expect(Self.screen([
            .modalPresent(modal: "a", style: nil), .stackPush(stack: "a", value: R("InA")),
            .modalPresent(modal: "b", style: nil),
        ]) == "modal:b")
    }

    @Test func aModalWinsOverTabsAndSplits() {
        #expect(Self.screen([
            .tabSelect(tab: "home"), .stackPush(stack: "home", value: R("A")),
            .splitSelect(split: nil, column: .detail, selection: [R("D")]),
            .modalPresent(modal: "m", style: .fullScreenCover),
        ]) == "modal:m")
    }

    // MARK: Rule 2: tabs

    @Test func aSelectedTabShowsItsStackElseTabId() {
        #expect(Self.screen([.tabSelect(tab: "home")]) == "tab:home")
        #expect(Self.screen([.tabSelect(tab: "home"), .stackPush(stack: "home", value: R("A", "1"))]) == "A/1")
        #expect(Self.screen([
            .tabSelect(tab: "home"), .stackPush(stack: "home", value: R("A")), .stackPop(stack: "home", count: nil),
        ]) == "tab:home")
    }

    @Test func aTabWinsOverSplitMainAndStackMain() {
        #expect(Self.screen([
            .stackPush(stack: "main", value: R("M")),
            .splitSelect(split: "main", column: .detail, selection: [R("D")]), .tabSelect(tab: "home"),
        ]) == "tab:home")
    }

    @Test func aHiddenSelectedTabStillShows() {
        #expect(Self.screen([
            .tabVisibility(tab: "x", hidden: true), .tabSelect(tab: "x"), .stackPush(stack: "x", value: R("X")),
        ]) == "X")
    }

    @Test func aTabWithASplitOfItsIdUsesTheSplitRule() {
        let setup: [EventKind] = [.tabSelect(tab: "mail"), .splitVisibility(split: "mail", visibility: .all)]
        #expect(Self.screen(setup) == "split:mail")
        #expect(Self.screen(setup + [.splitSelect(split: "mail", column: .sidebar, selection: [R("Box", "in")])]) == "Box/in")
        #expect(Self.screen(setup + [
            .splitSelect(split: "mail", column: .sidebar, selection: [R("Box", "in")]),
            .splitSelect(split: "mail", column: .content, selection: [R("Msg", "7")]),
            .stackPush(stack: "mail", value: R("Thread", "t")),
        ]) == "Thread/t")
    }

    @Test func aTabWithoutASplitIgnoresSplitMain() {
        #expect(Self.screen([
            .splitSelect(split: "main", column: .detail, selection: [R("D")]), .tabSelect(tab: "home"),
            .stackPush(stack: "home", value: R("H")),
        ]) == "H")
    }

    // MARK: Rule 3 and the split rule

    @Test func splitMainWithNothingSelectedIsSplitMain() {
        #expect(Self.screen([.splitVisibility(split: "main", visibility: .all)]) == "split:main")
    }

    @Test func stackMainWinsOverSplitMainsColumns() {
        // The split rule looks at stack `main` first.
        #expect(Self.screen([
            .splitSelect(split: nil, column: .detail, selection: [R("D")]), .stackPush(stack: "main", value: R("Pushed")),
        ]) == "Pushed")
    }

    @Test func columnsAreCheckedDetailThenContentThenSidebar() {
        let sidebar = EventKind.splitSelect(split: nil, column: .sidebar, selection: [R("S")])
        let content = EventKind.splitSelect(split: nil, column: .content, selection: [R("C")])
        let detail = EventKind.splitSelect(split: nil, column: .detail, selection: [R("D")])
        #expect(Self.screen([sidebar]) == "S")
        #expect(Self.screen([sidebar, content]) == "C")
        #expect(Self.screen([detail, content, sidebar]) == "D")
        #expect(Self.screen([sidebar, detail]) == "D")
        #expect(Self.screen([content, detail, .splitSelect(split: nil, column: .detail, selection: [])]) == "C")
    }

    @Test func multiSelectShowsTheFirstValue() {
        #expect(Self.screen([
            .splitSelect(split: nil, column: .content, selection: [R("Note", "1"), R("Note", "2"), R("Note", "3")]),
        ]) == "Note/1")
    }

    @Test func otherSplitsDoNotShowWithoutATab() {
        #expect(Self.screen([.splitSelect(split: "side", column: .detail, selection: [R("D")])]) == "root")
        #expect(Self.screen([
            .splitSelect(split: "side", column: .detail, selection: [R("D")]), .stackPush(stack: "main", value: R("M")),
        ]) == "M")
    }

    @Test func visibilityAndSizeClassDoNotChangeTheScreen() {
        let base: [EventKind] = [.splitSelect(split: nil, column: .sidebar, selection: [R("S")])]
        for visibility in SplitVisibility.allCases {
            #expect(Self.screen(base + [.splitVisibility(split: "main", visibility: visibility)]) == "S")
        }
        #expect(Self.screen(base + [.layoutChange(sizeClass: .compact)]) == "S")
        #expect(Self.screen(base + [.layoutChange(sizeClass: .regular)]) == "S")
    }
}
