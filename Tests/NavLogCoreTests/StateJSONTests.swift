import Testing
import NavLogCore

/// The state JSON of docs/state.md, byte for byte.
@Suite("State JSON")
struct StateJSONTests {
    @Test func emptyState() {
        #expect(NavigationState(session: "s-1").jsonText == #"{"anomalies":{},"scenes":{},"seq":0,"session":"s-1","t":null}"#)
    }

    @Test func aNewScene() {
        let state = Fixture.state([.sceneOpen])
        #expect(state.jsonText == #"{"anomalies":{},"scenes":{"main":{"modals":[],"screen":"root","sizeClass":null,"splits":{},"stacks":{},"tabs":{"hidden":[],"order":[],"selected":null}}},"seq":1,"session":"s-1","t":"2026-11-20T10:00:01.000Z"}"#)
    }

    /// Events that produce the example state of docs/state.md.
    static let contractExampleEvents: [Event] = {
        var events = Fixture.events([
            .sessionStart(app: ["version": .string("3.2.0")], device: nil),
            .tabsDefine(tabs: ["home", "search", "settings"]),
            .tabVisibility(tab: "settings", hidden: true),
            .tabSelect(tab: "home"),
            .stackPop(stack: "home", count: 2),
            .stackPush(stack: "home", value: R("Category", "desserts")),
            .stackPush(stack: "home", value: R("Recipe", "apple-pie")),
            .splitSelect(split: nil, column: .sidebar, selection: [R("Category", "desserts")]),
            .splitVisibility(split: "main", visibility: .all),
            .layoutChange(sizeClass: .regular),
        ])
        events.append(Event(session: "s-1", seq: 42, t: Timestamp(rfc3339: "2026-11-20T10:00:05.120Z")!,
                            kind: .modalPresent(modal: "settings", style: nil)))
        return events
    }()

    /// The example of docs/state.md, as printed there.
    static let contractExample = #"""
        {"anomalies":{"pop-underflow":1},
         "scenes":{"main":{
           "modals":[{"modal":"settings","style":"sheet"}],
           "screen":"modal:settings",
           "sizeClass":"regular",
           "splits":{"main":{"content":[],"detail":[],"sidebar":[{"id":"desserts","type":"Category"}],"visibility":"all"}},
           "stacks":{"home":[{"id":"desserts","type":"Category"},{"id":"apple-pie","type":"Recipe"}]},
           "tabs":{"hidden":["settings"],"order":["home","search","settings"],"selected":"home"}}},
         "seq":42,"session":"s-1","t":"2026-11-20T10:00:05.120Z"}
        """#

    @Test func theContractExample() throws {
        let state = NavigationState(session: "s-1", folding: Self.contractExampleEvents)
        let expected = #"{"anomalies":{"pop-underflow":1},"scenes":{"main":{"modals":[{"modal":"settings","style":"sheet"}],"screen":"modal:settings","sizeClass":"regular","splits":{"main":{"content":[],"detail":[],"sidebar":[{"id":"desserts","type":"Category"}],"visibility":"all"}},"stacks":{"home":[{"id":"desserts","type":"Category"},{"id":"apple-pie","type":"Recipe"}]},"tabs":{"hidden":["settings"],"order":["home","search","settings"],"selected":"home"}}},"seq":42,"session":"s-1","t":"2026-11-20T10:00:05.120Z"}"#
        #expect(state.jsonText == expected)
        #expect(try JSONValue.parse(Self.contractExample) == state.jsonValue)
    }

    @Test func theContractExampleFromNDJSON() throws {
        let lines = [
            #"{"session":"s-1","t":"2026-11-20T10:00:00Z","type":"session.start","app":{"version":"3.2.0"}}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:01Z","type":"tabs.define","tabs":["home","search","settings"]}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:01.5Z","type":"tab.visibility","tab":"settings","hidden":true}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:02Z","type":"tab.select","tab":"home"}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:02Z","type":"stack.pop","stack":"home","count":2}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:03Z","type":"stack.push","stack":"home","value":{"type":"Category","id":"desserts","extra":1}}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:03.5Z","type":"stack.push","stack":"home","value":{"type":"Recipe","id":"apple-pie","data":null}}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:04Z","type":"split.select","column":"sidebar","selection":[{"type":"Category","id":"desserts"}]}"#,
            #"{"session":"s-1","t":"2026-11-20T10:00:04Z","type":"split.visibility","split":"main","visibility":"all"}"#,
            #"{"session":"s-1","t":"2026-11-20T11:00:04+01:00","type":"layout.change","sizeClass":"regular","scene":"main"}"#,
            #"{"session":"s-1","seq":42,"t":"2026-11-20T10:00:05.120999Z","type":"modal.present","modal":"settings","style":null}"#,
        ]
        var sequencer = Sequencer()
        var state = NavigationState(session: "s-1")
        for line in lines {
            var event = try EventParser.parse(line)
            try sequencer.accept(&event)
            state.apply(event)
        }
        #expect(try JSONValue.parse(Self.contractExample).canonicalText == state.jsonText)
    }

    @Test func routeValuesKeepIdAndDataAndSortKeys() {
        let value = R("Recipe", data: .object(["z": .number("1.50"), "a": .array([.null, .bool(false)])]))
        let state = Fixture.state([.stackPush(stack: "s", value: value), .stackPush(stack: "s", value: R("Plain"))])
        #expect(state.scenes["main"]!.jsonValue.canonicalText == #"{"modals":[],"screen":"root","sizeClass":null,"splits":{},"stacks":{"s":[{"data":{"a":[null,false],"z":1.50},"type":"Recipe"},{"type":"Plain"}]},"tabs":{"hidden":[],"order":[],"selected":null}}"#)
        #expect(R("A", "1", data: .string("d")).jsonValue.canonicalText == #"{"data":"d","id":"1","type":"A"}"#)
    }

    @Test func hiddenTabsAreListedInTabOrder() {
        let tabs = Fixture.main([
            .tabsDefine(tabs: ["d", "c", "b", "a"]), .tabVisibility(tab: "a", hidden: true),
            .tabVisibility(tab: "d", hidden: true), .tabVisibility(tab: "b", hidden: true),
        ]).tabs
        #expect(tabs.jsonValue.canonicalText == #"{"hidden":["d","b","a"],"order":["d","c","b","a"],"selected":null}"#)
        #expect(tabs.hiddenInOrder == ["d", "b", "a"])
    }

    @Test func hiddenTabsOutsideTheOrderAreListedLastSorted() {
        let tabs = TabState(order: ["b", "a"], hidden: ["z", "a", "y"], selected: "q")
        #expect(tabs.jsonValue.canonicalText == #"{"hidden":["a","y","z"],"order":["b","a"],"selected":"q"}"#)
    }

    @Test func emptiedStacksAndNewSplitsAreWritten() {
        let scene = Fixture.main([
            .stackPush(stack: "home", value: R("A")), .stackPop(stack: "home", count: nil),
            .splitVisibility(split: "side", visibility: .detailOnly), .modalPresent(modal: "m", style: .confirmationDialog),
        ])
        #expect(scene.jsonValue.canonicalText == #"{"modals":[{"modal":"m","style":"confirmationDialog"}],"screen":"modal:m","sizeClass":null,"splits":{"side":{"content":[],"detail":[],"sidebar":[],"visibility":"detailOnly"}},"stacks":{"home":[]},"tabs":{"hidden":[],"order":[],"selected":null}}"#)
    }

    @Test func anomaliesAndScenesAreSortedByCodePoint() {
        var state = NavigationState(session: "s-ü")
        state.apply(Fixture.event(1, .sessionEnd, scene: "b"))
        state.apply(Fixture.event(2, .modalDismiss(modal: nil), scene: "B"))
        state.apply(Fixture.event(3, .stackPop(stack: "x", count: nil), scene: "é"))
        state.apply(Fixture.event(4, .modalDismiss(modal: "q"), scene: "b"))
        let scene = #"{"modals":[],"screen":"root","sizeClass":null,"splits":{},"stacks":{},"tabs":{"hidden":[],"order":[],"selected":null}}"#
        let withX = #"{"modals":[],"screen":"root","sizeClass":null,"splits":{},"stacks":{"x":[]},"tabs":{"hidden":[],"order":[],"selected":null}}"#
        #expect(state.jsonText == #"{"anomalies":{"after-end":3,"dismiss-empty":1,"dismiss-unknown":1,"pop-underflow":1},"scenes":{"B":"# + scene + #","b":"# + scene + #","é":"# + withX + #"},"seq":4,"session":"s-ü","t":"2026-11-20T10:00:04.000Z"}"#)
    }

    @Test func stringsAreEscaped() {
        let state = Fixture.state([.stackPush(stack: "a\"b", value: R("T\n", "x\\y"))])
        #expect(state.scenes["main"]!.jsonValue.canonicalText.contains(#""stacks":{"a\"b":[{"id":"x\\y","type":"T\n"}]}"#))
    }

    @Test func theContractFormHasNoEndedKey() {
        let state = Fixture.state([.sessionEnd])
        #expect(state.jsonText == #"{"anomalies":{},"scenes":{"main":{"modals":[],"screen":"root","sizeClass":null,"splits":{},"stacks":{},"tabs":{"hidden":[],"order":[],"selected":null}}},"seq":1,"session":"s-1","t":"2026-11-20T10:00:01.000Z"}"#)
    }

    @Test func theCheckpointFormAddsEndedOnlyWhenEnded() {
        let ended = Fixture.state([.sessionEnd])
        #expect(ended.checkpointJSON.canonicalText == #"{"anomalies":{},"ended":true,"scenes":{"main":{"modals":[],"screen":"root","sizeClass":null,"splits":{},"stacks":{},"tabs":{"hidden":[],"order":[],"selected":null}}},"seq":1,"session":"s-1","t":"2026-11-20T10:00:01.000Z"}"#)
        let open = Fixture.state([.sceneOpen])
        #expect(open.checkpointJSON == open.jsonValue)
    }
}
