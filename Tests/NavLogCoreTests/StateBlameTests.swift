import Testing
import NavLogCore
import NavLogSample

/// `StateBlame`: the origin of every stack value, split selection and modal.
@Suite("StateBlame")
struct StateBlameTests {
    static func e(_ seq: Int, _ kind: EventKind, cause: Int? = nil, scene: String? = nil) -> Event {
        Event(session: "s", seq: seq, t: Timestamp(milliseconds: Int64(seq) * 1000), scene: scene, kind: kind, cause: cause)
    }
    static func v(_ id: String) -> RouteValue { RouteValue(type: "R", id: id) }

    @Test func pushesPopsDeepLinksSetsSplitsAndModals() {
        var blame = StateBlame(session: "s")
        let events = [
            Self.e(1, .stackPush(stack: "home", value: Self.v("a"))),
            Self.e(2, .stackPush(stack: "home", value: Self.v("b"))),
            Self.e(3, .urlOpen(url: "app://c")),
            Self.e(4, .stackPop(stack: "home", count: 1), cause: 3),
            Self.e(5, .stackPush(stack: "home", value: Self.v("c")), cause: 4),   // cause chain 5 → 4 → 3
            Self.e(6, .splitSelect(split: nil, column: .sidebar, selection: [Self.v("x")])),
            Self.e(7, .modalPresent(modal: "m1", style: nil)),
            Self.e(8, .modalPresent(modal: "m2", style: .alert)),
            Self.e(9, .modalDismiss(modal: "m2")),
            Self.e(10, .stackSet(stack: "other", path: [Self.v("p"), Self.v("q")])),
            Self.e(11, .stackPush(stack: "other", value: Self.v("r")), scene: "side"),
        ]
        for event in events { blame.apply(event) }
        let main = blame.scenes["main"]!
        #expect(main.stacks["home"]!.map(\.event.seq) == [1, 5])
        #expect(main.stacks["home"]![1].url?.seq == 3)
        #expect(main.stacks["home"]![0].url == nil)
        #expect(main.splits["main"]?[.sidebar]?.event.seq == 6)
        #expect(main.modals.map(\.event.seq) == [7])
        #expect(main.stacks["other"]!.map(\.event.seq) == [10, 10])
        #expect(blame.scenes["side"]!.stacks["other"]!.map(\.event.seq) == [11])
        // A restore is the origin of everything it sets; a close forgets the scene.
        var restored = SceneState(stacks: ["home": [Self.v("a")]])
        restored.modals = [ModalPresentation(modal: "z", style: .sheet)]
        blame.apply(Self.e(12, .stateRestore(state: restored, json: [:])))
        #expect(blame.scenes["main"]!.stacks["home"]!.map(\.event.seq) == [12])
        #expect(blame.scenes["main"]!.modals.map(\.event.seq) == [12])
        #expect(blame.scenes["main"]!.stacks["other"] == nil)
        blame.apply(Self.e(13, .sceneClose, scene: "side"))
        #expect(blame.scenes["side"] == nil)
    }

    /// On generated sessions: the state is the fold, and each stack value's
    /// origin is the last event that changed the stack's prefix up to it (or
    /// set the stack, or restored its scene).
    @Test(arguments: [1, 2, 3, 4])
    func originsAreTheLastEventThatChangedEachPrefix(seed: UInt64) {
        let generator = SampleGenerator(.init(sessions: 1, seed: seed, eventsPerSession: 400...400))
        let events = Array(generator.session(at: 0))
        var blame = StateBlame(session: events[0].session)
        var state = NavigationState(session: events[0].session)
        var origin: [String: Int] = [:]   // "scene\0stack\0index" → seq
        for event in events {
            let before = state
            state.apply(event)
            blame.apply(event)
            for (sceneID, scene) in state.scenes {
                for (stack, values) in scene.stacks {
                    for i in values.indices {
                        let old = before.scenes[sceneID]?.stacks[stack]
                        let reset: Bool
                        switch event.kind {
                        case .stackSet(let s, _): reset = s == stack && event.sceneID == sceneID
                        case .stateRestore: reset = event.sceneID == sceneID
                        default: reset = false
                        }
                        if reset || old == nil || old!.count <= i || Array(old![...i]) != Array(values[...i]) {
                            origin["\(sceneID)\u{0}\(stack)\u{0}\(i)"] = event.seq
                        }
                    }
                }
            }
            #expect(blame.state == state)
        }
        var checked = 0
        for (sceneID, scene) in state.scenes {
            for (stack, values) in scene.stacks {
                let got = blame.scenes[sceneID]?.stacks[stack]?.map(\.event.seq) ?? []
                #expect(got.count == values.count)
                for i in values.indices where i < got.count {
                    #expect(got[i] == origin["\(sceneID)\u{0}\(stack)\u{0}\(i)"], "\(sceneID) \(stack) \(i)")
                    checked += 1
                }
            }
            #expect(blame.scenes[sceneID]?.modals.count == scene.modals.count)
        }
        #expect(checked > 0)
    }
}
