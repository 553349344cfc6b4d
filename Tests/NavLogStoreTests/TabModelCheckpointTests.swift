import Testing
import NavLogCore
import NavLogStore
import NavLogTestSupport

/// Checkpoints hold state JSON: the tab model of iOS 18 and later
/// (docs/tabs.md) must come back from them as the events left it.
@Suite("Checkpoints: the iOS 18 tab model")
struct TabModelCheckpointTests {
    @Test func everyStateFromACheckpointIsTheFoldedOne() throws {
        let kinds: [EventKind] = [
            .layoutChange(sizeClass: .regular, tabPresentation: .sidebar),
            .tabsDefine(tabs: ["home", "library"], sections: [TabSection(name: "Collections", tabs: ["favorites"])], searchTab: "search"),
            .tabSelect(tab: "library"),
            .tabsCustomize(order: ["search", "library", "home"], hidden: ["library"]),
            .layoutChange(sizeClass: .compact, tabPresentation: .tabBar),
            .tabVisibility(tab: "home", hidden: true),
            .mark(label: "done"),
        ]
        let events = kinds.enumerated().map { k, kind in
            Event(session: "s", seq: k + 1, t: Timestamp(milliseconds: 1_000 * Int64(k)), kind: kind)
        }
        let dir = try TemporaryDirectory()
        let path = dir.file("t.navlog")
        let writer = try LogWriter(path: path, options: LogWriterOptions(maxBlockEvents: 1, checkpointInterval: 1))
        try writer.append(contentsOf: events)
        try writer.close()
        let reader = try LogReader(path: path)
        #expect(reader.checkpoints.count >= 3)
        var folded = NavigationState(session: "s")
        for n in 0...events.count {
            if n > 0 { folded.apply(events[n - 1]) }
            let read = try reader.state(afterSeq: n)
            #expect(read == folded, "after seq \(n)")
        }
        #expect(folded.scenes["main"]!.tabs.customized)
    }
}
