import Testing
import NavLogCore

/// `SceneState.decodeRestore`: the `state` of a `state.restore` event
/// (docs/events.md, docs/state.md).
@Suite("State restore decoding")
struct RestoreDecodingTests {
    static func object(_ text: String) throws -> [String: JSONValue] {
        try #require(try JSONValue.parse(text).objectValue)
    }

    static func decode(_ text: String) throws -> (state: SceneState, canonical: [String: JSONValue]) {
        try SceneState.decodeRestore(try object(text))
    }

    @Test func aFullSceneObject() throws {
        let (state, _) = try Self.decode(#"""
            {"modals":[{"modal":"settings","style":"sheet"},{"modal":"pick","style":"popover"}],
             "screen":"modal:pick","sizeClass":"regular",
             "splits":{"main":{"content":[],"detail":[{"type":"Note","id":"1"}],"sidebar":[{"type":"Folder","id":"a"},{"type":"Folder","id":"b"}],"visibility":"all"}},
             "stacks":{"home":[{"id":"desserts","type":"Category"},{"id":"apple-pie","type":"Recipe","data":{"x":[1,2]}}],"empty":[]},
             "tabs":{"hidden":["settings"],"order":["home","search","settings"],"selected":"home"}}
            """#)
        #expect(state == SceneState(
            modals: [ModalPresentation(modal: "settings", style: .sheet), ModalPresentation(modal: "pick", style: .popover)],
            sizeClass: .regular,
            splits: ["main": SplitState(sidebar: [R("Folder", "a"), R("Folder", "b")], detail: [R("Note", "1")], visibility: .all)],
            stacks: ["home": [R("Category", "desserts"), R("Recipe", "apple-pie", data: .object(["x": .array([.number("1"), .number("2")])]))],
                     "empty": []],
            tabs: TabState(order: ["home", "search", "settings"], hidden: ["settings"], selected: "home")))
    }

    @Test func aSceneObjectRoundTripsThroughItsJSON() throws {
        let scene = NavigationState(session: "s-1", folding: StateJSONTests.contractExampleEvents).scenes["main"]!
        let (decoded, canonical) = try SceneState.decodeRestore(try #require(scene.jsonValue.objectValue))
        #expect(decoded == scene)
        #expect(JSONValue.object(canonical) == scene.jsonValue)
    }

    @Test func missingKeysTakeDefaults() throws {
        #expect(try Self.decode("{}").state == SceneState())
        let (state, _) = try Self.decode(#"{"splits":{"s":{}},"tabs":{},"modals":[{"modal":"m"}]}"#)
        #expect(state == SceneState(modals: [ModalPresentation(modal: "m", style: .sheet)], splits: ["s": SplitState()]))
    }

    @Test func nullMeansAbsent() throws {
        let (state, _) = try Self.decode(#"""
            {"modals":null,"sizeClass":null,"splits":{"s":{"detail":null,"visibility":null}},
             "stacks":{"s":[{"type":"A","id":null,"data":null}]},
             "tabs":{"order":null,"hidden":null,"selected":null},"screen":null}
            """#)
        #expect(state == SceneState(splits: ["s": SplitState()], stacks: ["s": [R("A")]]))
    }

    @Test func theScreenIsIgnored() throws {
        #expect(try Self.decode(#"{"screen":"Anything/at-all"}"#).state == SceneState())
        #expect(throws: EventParseError.wrongType(field: "state.screen", expected: "a string", found: "object")) {
            try Self.decode(#"{"screen":{"not":"a string"}}"#)
        }
    }

    @Test func aNullStackOrSplitIsAnError() {
        #expect(throws: EventParseError.wrongType(field: "state.stacks.gone", expected: "an array of route values", found: "null")) {
            try Self.decode(#"{"stacks":{"gone":null}}"#)
        }
        #expect(throws: EventParseError.wrongType(field: "state.splits.gone", expected: "an object", found: "null")) {
            try Self.decode(#"{"splits":{"gone":null}}"#)
        }
    }

    @Test func integerIdsBecomeDecimalStrings() throws {
        let (state, canonical) = try Self.decode(#"{"stacks":{"s":[{"type":"A","id":42},{"type":"B","id":-7},{"type":"C","id":"9"}]}}"#)
        #expect(state.stacks["s"] == [R("A", "42"), R("B", "-7"), R("C", "9")])
        #expect(JSONValue.object(canonical).canonicalText == #"{"stacks":{"s":[{"id":"42","type":"A"},{"id":"-7","type":"B"},{"id":"9","type":"C"}]}}"#)
    }

    @Test func theCanonicalObjectIsAsGivenWithRouteValuesReduced() throws {
        let (_, canonical) = try Self.decode(#"""
            {"screen":"stale","custom":{"k":null},"sizeClass":null,
             "splits":{"m":{"sidebar":[{"type":"F","id":1,"junk":true,"data":null}],"note":"kept"}},
             "stacks":{"s":[{"data":{"d":null},"type":"A","extra":[1]}],"n":[]},
             "modals":[{"modal":"x","style":null,"why":"kept"}],
             "tabs":{"order":["a","a"],"hidden":["z"],"selected":null}}
            """#)
        #expect(JSONValue.object(canonical).canonicalText == #"{"custom":{"k":null},"modals":[{"modal":"x","style":null,"why":"kept"}],"screen":"stale","sizeClass":null,"splits":{"m":{"note":"kept","sidebar":[{"id":"1","type":"F"}]}},"stacks":{"n":[],"s":[{"data":{"d":null},"type":"A"}]},"tabs":{"hidden":["z"],"order":["a","a"],"selected":null}}"#)
    }

    @Test func tabsAreNormalisedLikeTheEventsWouldLeaveThem() throws {
        let (state, _) = try Self.decode(#"{"tabs":{"order":["a","b","a"],"hidden":["c","b","c"],"selected":"elsewhere"}}"#)
        #expect(state.tabs == TabState(order: ["a", "b", "c"], hidden: ["b", "c"], selected: "elsewhere"))
    }

    @Test(arguments: [
        (#"{"stacks":{"home":[{"id":"x"}]}}"#, EventParseError.missingField(field: "state.stacks.home[0].type")),
        (#"{"stacks":{"home":[{"type":"A"},{"type":null}]}}"#, .missingField(field: "state.stacks.home[1].type")),
        (#"{"stacks":{"home":[{"type":""}]}}"#, .invalidValue(field: "state.stacks.home[0].type", reason: "must not be empty")),
        (#"{"stacks":{"home":[{"type":7}]}}"#, .wrongType(field: "state.stacks.home[0].type", expected: "a string", found: "number")),
        (#"{"stacks":{"home":[{"type":"A","id":1.5}]}}"#, .wrongType(field: "state.stacks.home[0].id", expected: "a string or an integer", found: "a number with a fraction or exponent")),
        (#"{"stacks":{"home":[{"type":"A","id":1e2}]}}"#, .wrongType(field: "state.stacks.home[0].id", expected: "a string or an integer", found: "a number with a fraction or exponent")),
        (#"{"stacks":{"home":[{"type":"A","id":true}]}}"#, .wrongType(field: "state.stacks.home[0].id", expected: "a string or an integer", found: "boolean")),
        (#"{"stacks":{"home":["A"]}}"#, .wrongType(field: "state.stacks.home[0]", expected: "a route value object", found: "string")),
        (#"{"stacks":{"home":{}}}"#, .wrongType(field: "state.stacks.home", expected: "an array of route values", found: "object")),
        (#"{"stacks":[]}"#, .wrongType(field: "state.stacks", expected: "an object", found: "array")),
        (#"{"modals":{}}"#, .wrongType(field: "state.modals", expected: "an array of modals", found: "object")),
        (#"{"modals":["m"]}"#, .wrongType(field: "state.modals[0]", expected: "an object", found: "string")),
        (#"{"modals":[{"modal":"a"},{"style":"sheet"}]}"#, .missingField(field: "state.modals[1].modal")),
        (#"{"modals":[{"modal":3}]}"#, .wrongType(field: "state.modals[0].modal", expected: "a string", found: "number")),
        (#"{"modals":[{"modal":"m","style":"drawer"}]}"#, .invalidValue(field: "state.modals[0].style", reason: #""drawer" is not one of sheet, fullScreenCover, popover, alert, confirmationDialog, inspector"#)),
        (#"{"sizeClass":"large"}"#, .invalidValue(field: "state.sizeClass", reason: #""large" is not one of compact, regular"#)),
        (#"{"sizeClass":1}"#, .wrongType(field: "state.sizeClass", expected: "a string", found: "number")),
        (#"{"splits":{"main":[]}}"#, .wrongType(field: "state.splits.main", expected: "an object", found: "array")),
        (#"{"splits":{"main":{"detail":{}}}}"#, .wrongType(field: "state.splits.main.detail", expected: "an array of route values", found: "object")),
        (#"{"splits":{"main":{"sidebar":[{"id":"1"}]}}}"#, .missingField(field: "state.splits.main.sidebar[0].type")),
        (#"{"splits":{"main":{"visibility":"some"}}}"#, .invalidValue(field: "state.splits.main.visibility", reason: #""some" is not one of all, doubleColumn, detailOnly, automatic"#)),
        (#"{"splits":"main"}"#, .wrongType(field: "state.splits", expected: "an object", found: "string")),
        (#"{"tabs":[]}"#, .wrongType(field: "state.tabs", expected: "an object", found: "array")),
        (#"{"tabs":{"order":["a",2]}}"#, .wrongType(field: "state.tabs.order[1]", expected: "a string", found: "number")),
        (#"{"tabs":{"hidden":"a"}}"#, .wrongType(field: "state.tabs.hidden", expected: "an array of strings", found: "string")),
        (#"{"tabs":{"selected":false}}"#, .wrongType(field: "state.tabs.selected", expected: "a string", found: "boolean")),
    ])
    func rejects(text: String, expected: EventParseError) throws {
        let object = try Self.object(text)
        #expect(throws: expected) { try SceneState.decodeRestore(object) }
    }

    @Test func aStateRestoreLineParsesAndWritesBackReduced() throws {
        let line = #"{"session":"s-1","seq":3,"t":"2026-11-20T10:00:00Z","type":"state.restore","state":{"stacks":{"home":[{"type":"Recipe","id":12,"extra":"dropped"}]},"tabs":{"order":["home"],"selected":"home"}}}"#
        let event = try EventParser.parse(line)
        #expect(event.canonicalLine == #"{"seq":3,"session":"s-1","state":{"stacks":{"home":[{"id":"12","type":"Recipe"}]},"tabs":{"order":["home"],"selected":"home"}},"t":"2026-11-20T10:00:00.000Z","type":"state.restore"}"#)
        let state = NavigationState(session: "s-1", folding: [event])
        #expect(state.scenes["main"]?.screen == "Recipe/12")
        #expect(try EventParser.parse(event.canonicalLine) == event)
    }

    @Test func aBadStateRestoreLineIsRejectedWithItsPath() {
        let line = #"{"session":"s-1","t":"2026-11-20T10:00:00Z","type":"state.restore","state":{"stacks":{"home":[{"id":"x"}]}}}"#
        #expect(throws: EventParseError.missingField(field: "state.stacks.home[0].type")) { try EventParser.parse(line) }
    }

    /// Of several bad stacks or splits, the first by key is reported, every
    /// time (dictionaries iterate in an order of their own; a fuzzer found
    /// two parses of one line giving two different errors).
    @Test func ofSeveralBadStacksTheFirstByKeyIsReportedEveryTime() {
        let line = #"{"seq":1,"session":"s","state":{"splits":{"q":7,"p":[]},"stacks":{"c":[1],"b":"y","a":["x"]}},"t":"2026-11-20T10:00:00.000Z","type":"state.restore"}"#
        var errors = Set<String>()
        for _ in 0..<50 {
            do { _ = try EventParser.parse(line) } catch { errors.insert(error.description) }
        }
        #expect(errors == [EventParseError.wrongType(field: "state.stacks.a[0]", expected: "a route value object", found: "string").description])
    }
}
