import Testing
import NavLogCore

/// The modal stack: modal.present and modal.dismiss (docs/events.md).
@Suite("Projection: modals")
struct ProjectionModalTests {
    static func modals(_ scene: SceneState) -> [String] { scene.modals.map(\.modal) }

    @Test func presentPushesWithSheetAsTheDefaultStyle() {
        let scene = Fixture.main([
            .modalPresent(modal: "compose", style: nil), .modalPresent(modal: "picker", style: .popover),
        ])
        #expect(scene.modals == [
            ModalPresentation(modal: "compose", style: .sheet), ModalPresentation(modal: "picker", style: .popover),
        ])
    }

    @Test("every style is kept", arguments: ModalStyle.allCases)
    func presentKeepsTheStyle(style: ModalStyle) {
        #expect(Fixture.main([.modalPresent(modal: "m", style: style)]).modals == [ModalPresentation(modal: "m", style: style)])
    }

    @Test func presentingAnIdAnywhereInTheStackChangesNothing() {
        var state = Fixture.state([.modalPresent(modal: "a", style: nil), .modalPresent(modal: "b", style: .alert)])
        let before = state.scenes
        #expect(state.apply(Fixture.event(3, .modalPresent(modal: "a", style: .fullScreenCover))) == [.presentDuplicate])
        #expect(state.apply(Fixture.event(4, .modalPresent(modal: "b", style: nil))) == [.presentDuplicate])
        #expect(state.scenes == before)
        #expect(state.anomalies == [.presentDuplicate: 2])
    }

    @Test func dismissWithAnIdDismissesItAndAllAbove() {
        let scene = Fixture.main([
            .modalPresent(modal: "a", style: nil), .modalPresent(modal: "b", style: nil),
            .modalPresent(modal: "c", style: nil), .modalDismiss(modal: "b"),
        ])
        #expect(Self.modals(scene) == ["a"])
    }

    @Test func dismissWithTheTopIdDismissesOnlyIt() {
        let scene = Fixture.main([
            .modalPresent(modal: "a", style: nil), .modalPresent(modal: "b", style: nil), .modalDismiss(modal: "b"),
        ])
        #expect(Self.modals(scene) == ["a"])
    }

    @Test func dismissWithoutAnIdDismissesTheTop() {
        let scene = Fixture.main([
            .modalPresent(modal: "a", style: nil), .modalPresent(modal: "b", style: nil), .modalDismiss(modal: nil),
        ])
        #expect(Self.modals(scene) == ["a"])
    }

    @Test func dismissingAnUnknownModalChangesNothing() {
        var state = Fixture.state([.modalPresent(modal: "a", style: nil)])
        let before = state.scenes
        #expect(state.apply(Fixture.event(2, .modalDismiss(modal: "zzz"))) == [.dismissUnknown])
        #expect(state.scenes == before)
        #expect(state.anomalies == [.dismissUnknown: 1])
    }

    @Test func dismissingWithNothingPresentedIsDismissEmpty() {
        var state = Fixture.state([.sceneOpen])
        #expect(state.apply(Fixture.event(2, .modalDismiss(modal: nil))) == [.dismissEmpty])
        #expect(state.apply(Fixture.event(3, .modalDismiss(modal: "a"))) == [.dismissUnknown])
        #expect(state.scenes == ["main": SceneState()])
        #expect(state.anomalies == [.dismissEmpty: 1, .dismissUnknown: 1])
    }

    @Test func dismissingLeavesTheModalsStackAsItWas() {
        let scene = Fixture.main([
            .modalPresent(modal: "compose", style: nil),
            .stackPush(stack: "compose", value: R("Recipient", "ann")),
            .modalDismiss(modal: nil),
        ])
        #expect(scene.modals.isEmpty)
        #expect(scene.stacks["compose"] == [R("Recipient", "ann")])
        #expect(scene.screen == "root")
    }

    @Test func aDismissedModalCanBePresentedAgain() {
        var state = Fixture.state([.modalPresent(modal: "a", style: nil), .modalDismiss(modal: "a")])
        #expect(state.apply(Fixture.event(3, .modalPresent(modal: "a", style: .inspector))).isEmpty)
        #expect(state.scenes["main"]?.modals == [ModalPresentation(modal: "a", style: .inspector)])
    }
}
