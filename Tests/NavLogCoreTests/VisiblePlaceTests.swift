import Testing
import NavLogCore

/// Where a scene's visible screen is (``SceneState/visiblePlace``): the
/// same rules as its name (docs/state.md, "The visible screen"), telling
/// the viewer which element to highlight.
@Suite("Visible place")
struct VisiblePlaceTests {
    static func place(_ kinds: [EventKind]) -> (VisiblePlace, String) {
        let scene = Fixture.main(kinds)
        return (scene.visiblePlace, scene.screen)
    }

    @Test func eachRuleNamesItsPlace() {
        #expect(Self.place([.sceneOpen]) == (.root, "root"))
        #expect(Self.place([.stackPush(stack: "main", value: R("A")), .stackPush(stack: "main", value: R("B", "1"))]) == (.stack("main"), "B/1"))
        #expect(Self.place([.stackPush(stack: "main", value: R("A")), .modalPresent(modal: "settings", style: nil)]) == (.modal("settings"), "modal:settings"))
        #expect(Self.place([.modalPresent(modal: "compose", style: nil), .stackPush(stack: "compose", value: R("Draft"))]) == (.stack("compose"), "Draft"))
        #expect(Self.place([.tabsDefine(tabs: ["home", "search"]), .tabSelect(tab: "search")]) == (.tab("search"), "tab:search"))
        #expect(Self.place([.tabSelect(tab: "home"), .stackPush(stack: "home", value: R("Recipe", "pie"))]) == (.stack("home"), "Recipe/pie"))
        #expect(Self.place([.splitSelect(split: nil, column: .sidebar, selection: [R("S")]), .splitSelect(split: nil, column: .content, selection: [R("C"), R("C2")])])
            == (.column(split: "main", column: "content"), "C"))
        #expect(Self.place([.splitVisibility(split: "main", visibility: .all)]) == (.split("main"), "split:main"))
        #expect(Self.place([.splitSelect(split: "main", column: .detail, selection: [R("D")]), .stackPush(stack: "main", value: R("Deeper"))])
            == (.stack("main"), "Deeper"))
    }

    @Test func placesAsJSON() {
        #expect(VisiblePlace.column(split: "main", column: "detail").jsonValue.canonicalText == #"{"column":"detail","name":"main","place":"column"}"#)
        #expect(VisiblePlace.root.jsonValue.canonicalText == #"{"place":"root"}"#)
        #expect(VisiblePlace.stack("home").jsonValue.canonicalText == #"{"name":"home","place":"stack"}"#)
    }
}
