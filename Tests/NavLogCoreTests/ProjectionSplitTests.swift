import Testing
import NavLogCore

/// NavigationSplitView: split.select and split.visibility (docs/events.md).
@Suite("Projection: splits")
struct ProjectionSplitTests {
    @Test func selectDefaultsToSplitMainAndCreatesIt() {
        let scene = Fixture.main([.splitSelect(split: nil, column: .content, selection: [R("Note", "n1")])])
        #expect(scene.splits == ["main": SplitState(content: [R("Note", "n1")], visibility: .automatic)])
    }

    @Test func selectSetsOnlyItsColumn() {
        let split = Fixture.main([
            .splitSelect(split: "mail", column: .sidebar, selection: [R("Mailbox", "inbox")]),
            .splitSelect(split: "mail", column: .content, selection: [R("Message", "1")]),
            .splitSelect(split: "mail", column: .detail, selection: [R("Attachment", "a")]),
            .splitSelect(split: "mail", column: .content, selection: [R("Message", "2"), R("Message", "3")]),
        ]).splits["mail"]
        #expect(split == SplitState(
            sidebar: [R("Mailbox", "inbox")], content: [R("Message", "2"), R("Message", "3")],
            detail: [R("Attachment", "a")], visibility: .automatic))
    }

    @Test func anEmptySelectionClearsTheColumnAndKeepsTheSplit() {
        let scene = Fixture.main([
            .splitSelect(split: nil, column: .sidebar, selection: [R("A")]),
            .splitSelect(split: nil, column: .sidebar, selection: []),
        ])
        #expect(scene.splits == ["main": SplitState()])
    }

    @Test func visibilityCreatesTheSplitWithEmptyColumns() {
        let scene = Fixture.main([.splitVisibility(split: "browse", visibility: .detailOnly)])
        #expect(scene.splits == ["browse": SplitState(sidebar: [], content: [], detail: [], visibility: .detailOnly)])
    }

    @Test func visibilityChangesOnlyTheVisibility() {
        let split = Fixture.main([
            .splitSelect(split: "main", column: .sidebar, selection: [R("A")]),
            .splitVisibility(split: "main", visibility: .all),
            .splitVisibility(split: "main", visibility: .doubleColumn),
        ]).splits["main"]
        #expect(split == SplitState(sidebar: [R("A")], visibility: .doubleColumn))
    }

    @Test func splitsAreIndependent() {
        let scene = Fixture.main([
            .splitSelect(split: "a", column: .detail, selection: [R("X")]),
            .splitSelect(split: "b", column: .detail, selection: [R("Y")]),
        ])
        #expect(scene.splits["a"]?.detail == [R("X")])
        #expect(scene.splits["b"]?.detail == [R("Y")])
    }
}
