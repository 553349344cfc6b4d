import Testing
import NavLogCore

/// Navigation stacks: push, pop, popToRoot, set; which events create stacks.
@Suite("Projection: stacks")
struct ProjectionStackTests {
    @Test func pushAppendsToTheNamedStack() {
        let scene = Fixture.main([
            .stackPush(stack: "home", value: R("Category", "desserts")),
            .stackPush(stack: "home", value: R("Recipe", "apple-pie", data: .object(["servings": .number("4")]))),
            .stackPush(stack: "search", value: R("Query")),
        ])
        #expect(scene.stacks == [
            "home": [R("Category", "desserts"), R("Recipe", "apple-pie", data: .object(["servings": .number("4")]))],
            "search": [R("Query")],
        ])
    }

    @Test func popRemovesOneByDefault() {
        let scene = Fixture.main([
            .stackPush(stack: "s", value: R("A")), .stackPush(stack: "s", value: R("B")),
            .stackPop(stack: "s", count: nil),
        ])
        #expect(scene.stacks["s"] == [R("A")])
    }

    @Test func popRemovesCount() {
        var state = Fixture.state([
            .stackPush(stack: "s", value: R("A")), .stackPush(stack: "s", value: R("B")),
            .stackPush(stack: "s", value: R("C")),
        ])
        #expect(state.apply(Fixture.event(4, .stackPop(stack: "s", count: 2))).isEmpty)
        #expect(state.scenes["main"]?.stacks["s"] == [R("A")])
    }

    @Test func poppingExactlyWhatIsHeldEmptiesWithoutAnomaly() {
        let state = Fixture.state([
            .stackPush(stack: "s", value: R("A")), .stackPush(stack: "s", value: R("B")),
            .stackPop(stack: "s", count: 2),
        ])
        #expect(state.scenes["main"]?.stacks["s"] == [])
        #expect(state.anomalies.isEmpty)
    }

    @Test func poppingMoreThanHeldEmptiesAndIsAnUnderflow() {
        var state = Fixture.state([.stackPush(stack: "s", value: R("A")), .stackPush(stack: "s", value: R("B"))])
        #expect(state.apply(Fixture.event(3, .stackPop(stack: "s", count: 3))) == [.popUnderflow])
        #expect(state.scenes["main"]?.stacks["s"] == [])
        #expect(state.anomalies == [.popUnderflow: 1])
    }

    @Test func popOfAnUnknownStackCreatesItEmptyAndIsAnUnderflow() {
        let state = Fixture.state([.stackPop(stack: "new", count: nil)])
        #expect(state.scenes["main"]?.stacks == ["new": []])
        #expect(state.anomalies == [.popUnderflow: 1])
    }

    @Test func popToRootEmptiesTheStack() {
        let state = Fixture.state([
            .stackPush(stack: "s", value: R("A")), .stackPush(stack: "s", value: R("B")), .stackPopToRoot(stack: "s"),
        ])
        #expect(state.scenes["main"]?.stacks == ["s": []])
        #expect(state.anomalies.isEmpty)
    }

    @Test func popToRootOfAnUnknownStackCreatesItEmpty() {
        let state = Fixture.state([.stackPopToRoot(stack: "new")])
        #expect(state.scenes["main"]?.stacks == ["new": []])
        #expect(state.anomalies.isEmpty)
    }

    @Test func setReplacesTheWholeStack() {
        let scene = Fixture.main([
            .stackPush(stack: "s", value: R("A")), .stackPush(stack: "s", value: R("B")),
            .stackSet(stack: "s", path: [R("X", "1"), R("Y", "2"), R("Z")]),
        ])
        #expect(scene.stacks["s"] == [R("X", "1"), R("Y", "2"), R("Z")])
    }

    @Test func setCreatesAStackAndAnEmptyPathStaysEmpty() {
        let scene = Fixture.main([.stackSet(stack: "s", path: [])])
        #expect(scene.stacks == ["s": []])
    }

    @Test func anEmptiedStackCanBePushedAgain() {
        let scene = Fixture.main([
            .stackPush(stack: "s", value: R("A")), .stackPop(stack: "s", count: 5), .stackPush(stack: "s", value: R("B")),
        ])
        #expect(scene.stacks["s"] == [R("B")])
    }

    @Test("only stack events and state.restore create stacks", arguments: [
        EventKind.tabSelect(tab: "home"), .tabsDefine(tabs: ["home"]), .tabVisibility(tab: "home", hidden: true),
        .splitSelect(split: "home", column: .detail, selection: [R("A")]),
        .splitVisibility(split: "home", visibility: .all), .modalPresent(modal: "home", style: nil),
        .modalDismiss(modal: "home"), .layoutChange(sizeClass: .regular),
    ])
    func noStackFrom(kind: EventKind) {
        #expect(Fixture.main([kind]).stacks.isEmpty)
    }
}
