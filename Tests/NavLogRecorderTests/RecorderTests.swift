import Foundation
import NavLogCore
import NavLogRecorder
import NavLogStore
import Testing
import NavLogTestSupport

private enum AppRoute: Hashable, RouteConvertible {
    case category(String), recipe(String)
    var routeValue: RouteValue {
        switch self {
        case .category(let id): RouteValue(type: "Category", id: id)
        case .recipe(let id): RouteValue(type: "Recipe", id: id)
        }
    }
}

private struct Settings: Identifiable, RouteConvertible {
    var id: Int
}

@Suite("Recorder")
struct RecorderTests {
    @Test func stackChangesAreDiffedIntoMinimalEvents() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1",
                                              app: ["version": .string("2.3")], device: ["model": .string("iPhone")])
        let pie = AppRoute.recipe("apple-pie"), desserts = AppRoute.category("desserts")
        #expect(recorder.stackChanged("home", to: [desserts]) == 2)
        #expect(recorder.stackChanged("home", to: [desserts]) == nil)             // equal: nothing
        recorder.stackChanged("home", to: [desserts, pie])                          // push
        recorder.stackChanged("home", to: [desserts, pie, .recipe("crumble"), .recipe("tart")]) // set
        recorder.stackChanged("home", to: [desserts])                              // pop 3
        recorder.stackChanged("home", to: [AppRoute]())                               // popToRoot
        // Heterogeneous values, as in a NavigationPath.
        recorder.stackChanged("home", to: [desserts, Settings(id: 7)] as [any RouteConvertible]) // set
        recorder.stackChanged("home", to: [desserts, Settings(id: 7), pie] as [any RouteConvertible]) // push
        // Another scene's stack of the same name is its own.
        recorder.stackChanged("home", to: [pie], scene: "second")                 // push
        // Explicit stack events keep the diff in step.
        recorder.record(.stackPop(stack: "home", count: 1))
        #expect(recorder.stackChanged("home", to: [desserts, Settings(id: 7)] as [any RouteConvertible]) == nil)
        try recorder.close()

        let events = try readEvents(path)
        #expect(events.map(\.seq) == Array(1...events.count))
        #expect(events[0].kind == .sessionStart(app: ["version": .string("2.3")], device: ["model": .string("iPhone")]))
        let settings = RouteValue(type: "Settings", id: "7")
        let d = desserts.routeValue, p = pie.routeValue
        #expect(events.dropFirst().map(\.kind) == [
            .stackPush(stack: "home", value: d),
            .stackPush(stack: "home", value: p),
            .stackSet(stack: "home", path: [d, p, RouteValue(type: "Recipe", id: "crumble"), RouteValue(type: "Recipe", id: "tart")]),
            .stackPop(stack: "home", count: 3),
            .stackPopToRoot(stack: "home"),
            .stackSet(stack: "home", path: [d, settings]),
            .stackPush(stack: "home", value: p),
            .stackPush(stack: "home", value: p),
            .stackPop(stack: "home", count: 1),
        ])
        #expect(events[8].scene == "second")
        #expect(events.allSatisfy { $0.session == "s-1" })
    }

    /// The paths diffed against are the projection's of the events recorded:
    /// a restored scene's stacks, a closed scene's none. The log replays to
    /// the paths the app reported.
    @Test func stackChangesAreDiffedAgainstTheProjectedPaths() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1")
        let pie = AppRoute.recipe("apple-pie"), desserts = AppRoute.category("desserts")
        recorder.stackChanged("home", to: [pie], scene: "second")
        let restored = SceneState(stacks: ["home": [desserts.routeValue]])
        guard case .object(let json) = restored.jsonValue else { Issue.record("a scene is an object"); return }
        recorder.record(.stateRestore(state: restored, json: json))
        recorder.stackChanged("home", to: [desserts, pie])           // push onto the restored path
        recorder.record(.sceneClose, scene: "second")
        recorder.stackChanged("home", to: [pie, desserts], scene: "second")   // from nothing: a set
        try recorder.close()

        let events = try readEvents(path)
        let d = desserts.routeValue, p = pie.routeValue
        #expect(events.dropFirst().map(\.kind) == [
            .stackPush(stack: "home", value: p),
            .stateRestore(state: restored, json: json),
            .stackPush(stack: "home", value: p),
            .sceneClose,
            .stackSet(stack: "home", path: [p, d]),
        ])
        var state = NavigationState(session: "s-1")
        for event in events { state.apply(event) }
        #expect(state.scenes["main"]?.stacks["home"] == [d, p])
        #expect(state.scenes["second"]?.stacks["home"] == [p, d])
    }

    @Test func everyKindHasACall() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1")
        recorder.tabsDefined(["home", "search"])
        recorder.tabChanged(to: "search")
        recorder.tabVisibilityChanged("search", hidden: true)
        recorder.splitSelectionChanged(column: .sidebar, to: [AppRoute.category("desserts")])
        recorder.splitVisibilityChanged(to: .detailOnly)
        recorder.presented("compose", style: .fullScreenCover)
        recorder.dismissed("compose")
        recorder.dismissed()
        recorder.layoutChanged(to: .compact)
        recorder.marked("purchase", meta: ["amount": .string("12.99")])
        recorder.sceneOpened(scene: "second")
        recorder.sceneClosed(scene: "second")
        recorder.push(AppRoute.recipe("pie"), on: "main")
        recorder.pop(2, from: "main")
        recorder.popToRoot("main")
        recorder.setStack("main", to: [AppRoute.recipe("pie")])
        recorder.record(.other(type: "app.custom"), extra: ["x": .number("1")])
        recorder.sessionEnded()
        try recorder.close()
        let events = try readEvents(path)
        #expect(events.map(\.type) == [
            "session.start", "tabs.define", "tab.select", "tab.visibility", "split.select", "split.visibility",
            "modal.present", "modal.dismiss", "modal.dismiss", "layout.change", "mark", "scene.open", "scene.close",
            "stack.push", "stack.pop", "stack.popToRoot", "stack.set", "app.custom", "session.end",
        ])
        #expect(events[4].kind == .splitSelect(split: nil, column: .sidebar, selection: [RouteValue(type: "Category", id: "desserts")]))
        #expect(events[10].meta == ["amount": .string("12.99")])
        #expect(events[11].scene == "second")
        #expect(events[17].extra == ["x": .number("1")])
    }

    @Test func eventsInsideOpenedURLCarryItsSeqAsCause() async throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1")
        recorder.tabChanged(to: "home")                                        // 2, no cause
        recorder.openedURL(URL(string: "recipes://recipe/apple-pie")!) {       // 3
            recorder.tabChanged(to: "search")                                  // 4
            recorder.stackChanged("search", to: [AppRoute.recipe("apple-pie")])   // 5
            // Another thread gets the cause explicitly.
            let cause = CauseContext.current
            let thread = Thread { recorder.marked("from-thread", cause: cause) } // 6
            thread.start()
            while recorder.flushedMarks(path) == nil { usleep(100) }
        }
        recorder.marked("after")                                               // 7, no cause
        await recorder.openedURL("recipes://search") {                     // 8
            async let child: Void = { _ = recorder.marked("child-task") }()         // 9 or 10
            await Task { _ = recorder.marked("task") }.value
            await child
        }
        try recorder.close()
        let events = try readEvents(path)
        let causes = Dictionary(uniqueKeysWithValues: events.map { ($0.seq, $0.cause) })
        #expect(events.count == 10)
        #expect(causes[2]! == nil && causes[3]! == nil && causes[7]! == nil && causes[8]! == nil)
        #expect(causes[4] == 3 && causes[5] == 3 && causes[6] == 3)
        #expect(causes[9] == 8 && causes[10] == 8)
        #expect(events[2].kind == .urlOpen(url: "recipes://recipe/apple-pie"))
    }

    @Test func aLogOfAnotherSessionIsRefusedAndAnExistingOneContinued() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let first = try NavigationRecorder(path: path, session: "s-1")
        first.marked("one")
        // One writer per file.
        #expect(throws: FileError.self) { try NavigationRecorder(path: path, session: "s-1") }
        try first.close()
        #expect(throws: FileError.self) { try NavigationRecorder(path: path, session: "s-2") }
        let second = try NavigationRecorder(path: path, session: "s-1")
        second.marked("two")
        try second.close()
        #expect(try readEvents(path).map(\.seq) == [1, 2, 3, 4])
        #expect(second.marked("late") == nil)
        #expect(throws: FileError.self) { try second.flush() }
    }

    @Test func flushMakesRecordedEventsReadable() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1",
                                              options: RecorderOptions(syncIntervalMilliseconds: nil))
        for i in 0..<100 { recorder.marked("m\(i)") }
        try recorder.flush()
        #expect(try readEvents(path).count == 101)
        recorder.marked("more")
        try recorder.flush()
        #expect(try readEvents(path).count == 102)
        try recorder.close()
    }

    @Test func theSyncIntervalMakesEventsDurableWithoutFlush() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1",
                                              options: RecorderOptions(syncIntervalMilliseconds: 20))
        recorder.marked("idle")
        var seen = 0
        for _ in 0..<500 where seen < 2 {
            usleep(10_000)
            seen = try readEvents(path).count
        }
        #expect(seen == 2)
        try recorder.close()
    }

    @Test func anOversizedEventIsReplacedByARejectedMarker() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1")
        let huge = String(repeating: "x", count: EventParser.maxLineBytes)
        recorder.marked(huge)                 // 2: refused by the writer
        recorder.marked("after")              // 3
        try recorder.close()
        let events = try readEvents(path)
        // The marker takes the next free seq: before or after "after".
        #expect(events.map(\.seq) == [1, 3, 4])
        let markers = events.filter { $0.type == "recorder.rejected" }
        #expect(markers.count == 1)
        #expect(markers.first?.extra["rejectedSeq"] == .number("2"))
        #expect(events.filter { label($0) == "after" }.count == 1)
    }
}

extension NavigationRecorder {
    /// The marks readable in the log after a flush (`nil` until one from another thread arrived).
    fileprivate func flushedMarks(_ path: String) -> Int? {
        try? flush()
        let count = (try? readEvents(path))?.filter { label($0) == "from-thread" }.count ?? 0
        return count > 0 ? count : nil
    }
}

@Suite("Recorder release")
struct RecorderReleaseTests {
    @Test func aRecorderReleasedWithoutCloseStillClosesItsLog() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        do {
            let recorder = try NavigationRecorder(path: path, session: "s-1")
            for i in 0..<50 { recorder.marked("m\(i)") }
        }
        // The writer thread finishes in the background and releases the lock.
        let recorder = try Self.reopenOnceReleased(path)
        try recorder.close()
        #expect(try readEvents(path).count == 52)
    }

    /// The log at `path` reopened by a new recorder once the released one's
    /// thread let go of it (tried for up to 10 s).
    static func reopenOnceReleased(_ path: String) throws -> NavigationRecorder {
        var reopened: NavigationRecorder?
        for _ in 0..<1000 where reopened == nil {
            reopened = try? NavigationRecorder(path: path, session: "s-1")
            if reopened == nil { usleep(10_000) }
        }
        return try #require(reopened)
    }

    /// Its writer sealing blocks on a thread of its own: the recorder's
    /// thread, the writer's last owner, closes it and lets it go (it stops
    /// and waits for the sealing thread); every event is in the log.
    @Test func aRecorderReleasedWithoutCloseWhileItsWriterSealsInTheBackgroundClosesItsLog() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let writer = LogWriterOptions(durability: .onFlush, maxBlockEvents: 20, sealsInBackground: true)
        do {
            let recorder = try NavigationRecorder(path: path, session: "s-1", options: RecorderOptions(writer: writer))
            for i in 0..<2000 { recorder.marked("m\(i)") }
        }
        let recorder = try Self.reopenOnceReleased(path)
        try recorder.close()
        let events = try readEvents(path)
        #expect(events.count == 2002)
        #expect(events.map(\.seq) == Array(1...2002))
    }
}
