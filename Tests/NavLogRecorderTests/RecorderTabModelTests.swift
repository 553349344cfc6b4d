import NavLogCore
import NavLogRecorder
import NavLogStore
import Testing
import NavLogTestSupport

/// The recorder's calls for the tab model of iOS 18 and later (docs/tabs.md).
@Suite("Recorder: the iOS 18 tab model")
struct RecorderTabModelTests {
    @Test func sectionsCustomizationAndPresentationAreRecorded() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1")
        let library = TabSection(name: "Library", tabs: ["favorites"])
        recorder.layoutChanged(to: .regular, tabPresentation: .sidebar)
        recorder.tabsDefined(["home", "favorites"], sections: [library], searchTab: "search")
        recorder.tabsCustomized(order: ["favorites", "home"], hidden: ["home"])
        recorder.layoutChanged(to: .compact)
        try recorder.close()
        let events = try readEvents(path)
        #expect(events.suffix(4).map(\.kind) == [
            .layoutChange(sizeClass: .regular, tabPresentation: .sidebar),
            .tabsDefine(tabs: ["home", "favorites"], sections: [library], searchTab: "search"),
            .tabsCustomize(order: ["favorites", "home"], hidden: ["home"]),
            .layoutChange(sizeClass: .compact),
        ])
        let tabs = try LogReader(path: path).finalState().scenes["main"]!.tabs
        #expect(tabs.customized && tabs.presentation == .sidebar && tabs.hidden == ["home"])
    }
}
