import Testing
@testable import NavLogCore
@testable import NavLogSample

/// `SampleGenerator.Options.ios18Tabs`: iPad sessions with tabs that use the
/// tab model of iOS 18 and later, and nothing else changed.
@Suite("Sample generator: the iOS 18 tab model")
struct SampleGeneratorTabModelTests {
    static let options = SampleGenerator.Options(sessions: 150, seed: 31, ios18Tabs: true)

    @Test func theProjectionAgreesWithTheModelAndEveryLineReadsBack() throws {
        var kinds: Set<String> = []
        var restoredSections = 0, customizedScenes = 0, presentations: Set<TabPresentation> = []
        for var session in SampleGenerator(Self.options).sessions() {
            var state = NavigationState(session: session.id)
            while let event = session.next() {
                state.apply(event)
                kinds.insert(event.type)
                #expect(try EventParser.parse(event.canonicalLine) == event)
                if case .stateRestore(let scene, _) = event.kind, scene.tabs.sections != nil { restoredSections += 1 }
                if case .layoutChange(_, let p?) = event.kind { presentations.insert(p) }
            }
            #expect(state.anomalies == session.plannedAnomalies, "\(session.id)")
            let model = session.modelScenes
            #expect(Set(state.scenes.keys) == Set(model.keys), "\(session.id)")
            for (id, scene) in state.scenes {
                #expect(scene == model[id]?.state, "\(session.id) scene \(id)")
                if scene.tabs.customized { customizedScenes += 1 }
            }
        }
        #expect(kinds.contains("tabs.customize"))
        #expect(customizedScenes > 0 && restoredSections > 0)
        #expect(presentations == [.tabBar, .sidebar])
    }

    /// Phone sessions, split-only iPad sessions: byte for byte what the
    /// generator writes without the option.
    @Test func onlyIPadSessionsWithTabsChange() {
        let plain = SampleGenerator(.init(sessions: 80, seed: 5)), modern = SampleGenerator(.init(sessions: 80, seed: 5, ios18Tabs: true))
        var changed = 0
        for i in 0..<80 {
            let a = Array(plain.session(at: i)), b = Array(modern.session(at: i))
            let usesTabs = b.contains { $0.canonicalLine.contains(#""sections":"#) || $0.canonicalLine.contains("tabPresentation") }
            if usesTabs { changed += 1 } else { #expect(a == b, "session \(i)") }
        }
        #expect(changed > 0)
    }
}
