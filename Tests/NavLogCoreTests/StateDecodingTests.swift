import Testing
import NavLogCore

/// Reading a state back from its JSON (checkpoints): exact round trips and
/// typed errors with paths.
@Suite("State decoding")
struct StateDecodingTests {
    static let states: [NavigationState] = [
        NavigationState(session: "s-1"),
        Fixture.state([.sceneOpen]),
        NavigationState(session: "s-1", folding: StateJSONTests.contractExampleEvents),
        Fixture.state([
            .tabsDefine(tabs: ["home", "search", "beta"]), .tabVisibility(tab: "beta", hidden: true),
            .tabSelect(tab: "gone"), .tabsDefine(tabs: ["home", "beta"]),
            .stackPush(stack: "home", value: R("Recipe", "pie", data: .object(["n": .number("1e3"), "ü": .array([])]))),
            .stackPush(stack: "home", value: R("Plain")), .stackPop(stack: "empty", count: 3),
            .splitSelect(split: "mail", column: .content, selection: [R("M", "1"), R("M", "2")]),
            .splitVisibility(split: "mail", visibility: .doubleColumn),
            .modalPresent(modal: "a", style: .inspector), .modalPresent(modal: "b", style: .alert),
            .modalDismiss(modal: "nope"), .layoutChange(sizeClass: .compact),
            .sessionEnd, .stackPush(stack: "late", value: R("L")),
        ]),
        {
            var state = Fixture.state([.stackPush(stack: "main", value: R("A"))], scene: "w1")
            state.apply(Fixture.event(2, .tabSelect(tab: "x"), scene: "w2"))
            state.apply(Fixture.event(3, .sessionEnd, scene: "w2"))
            return state
        }(),
    ]

    @Test("checkpoint JSON decodes to an equal state", arguments: 0..<states.count)
    func checkpointRoundTrip(index: Int) throws {
        let state = Self.states[index]
        #expect(try NavigationState(json: state.checkpointJSON) == state)
        // Through text too, as a checkpoint is stored.
        #expect(try NavigationState(json: JSONValue.parse(state.checkpointJSON.canonicalText)) == state)
    }

    @Test("contract JSON decodes to an equal state but for ended", arguments: 0..<states.count)
    func contractRoundTrip(index: Int) throws {
        var state = Self.states[index]
        let decoded = try NavigationState(json: state.jsonValue)
        #expect(!decoded.ended)
        state.ended = false
        #expect(decoded == state)
        #expect(decoded.jsonText == state.jsonText)
    }

    @Test func endedStatesRoundTripTheirEnd() throws {
        let state = Self.states[3]
        #expect(state.ended)
        var decoded = try NavigationState(json: state.checkpointJSON)
        #expect(decoded.apply(Fixture.event(99, .mark(label: "x"))) == [.afterEnd])
    }

    @Test func missingOptionalKeysTakeDefaults() throws {
        let state = try NavigationState(json: JSONValue.parse(#"{"session":"s-9","scenes":{"main":{}}}"#))
        var expected = NavigationState(session: "s-9")
        expected.scenes["main"] = SceneState()
        #expect(state == expected)
        #expect(try NavigationState(json: JSONValue.parse(#"{"session":"s","t":null,"anomalies":null,"ended":false}"#))
            == NavigationState(session: "s"))
    }

    @Test(arguments: [
        (#"[]"#, EventParseError.wrongType(field: "state", expected: "an object", found: "array")),
        (#"{}"#, .missingField(field: "session")),
        (#"{"session":null}"#, .missingField(field: "session")),
        (#"{"session":1}"#, .wrongType(field: "session", expected: "a string", found: "number")),
        (#"{"session":"s","seq":"1"}"#, .wrongType(field: "seq", expected: "an integer", found: "string")),
        (#"{"session":"s","seq":1.0}"#, .wrongType(field: "seq", expected: "an integer", found: "a number with a fraction or exponent")),
        (#"{"session":"s","seq":-1}"#, .invalidValue(field: "seq", reason: "must be ≥ 0, found -1")),
        (#"{"session":"s","seq":123456789012345678901234}"#, .invalidValue(field: "seq", reason: "integer out of range")),
        (#"{"session":"s","t":"yesterday"}"#, .invalidValue(field: "t", reason: #"not a strict RFC 3339 timestamp (character 1 is 'y', expected a digit): "yesterday""#)),
        (#"{"session":"s","t":5}"#, .wrongType(field: "t", expected: "a string", found: "number")),
        (#"{"session":"s","ended":"yes"}"#, .wrongType(field: "ended", expected: "a boolean", found: "string")),
        (#"{"session":"s","anomalies":[]}"#, .wrongType(field: "anomalies", expected: "an object", found: "array")),
        (#"{"session":"s","anomalies":{"oops":1}}"#, .invalidValue(field: "anomalies", reason: #""oops" is not one of pop-underflow, dismiss-unknown, dismiss-empty, present-duplicate, select-hidden, after-end"#)),
        (#"{"session":"s","anomalies":{"after-end":0}}"#, .invalidValue(field: "anomalies.after-end", reason: "must be ≥ 1, found 0")),
        (#"{"session":"s","anomalies":{"after-end":true}}"#, .wrongType(field: "anomalies.after-end", expected: "an integer", found: "boolean")),
        (#"{"session":"s","scenes":[]}"#, .wrongType(field: "scenes", expected: "an object", found: "array")),
        (#"{"session":"s","scenes":{"main":null}}"#, .wrongType(field: "scenes.main", expected: "an object", found: "null")),
        (#"{"session":"s","scenes":{"w":{"stacks":{"home":[{"id":"x"}]}}}}"#, .missingField(field: "scenes.w.stacks.home[0].type")),
        (#"{"session":"s","scenes":{"w":{"tabs":{"order":"home"}}}}"#, .wrongType(field: "scenes.w.tabs.order", expected: "an array of strings", found: "string")),
    ])
    func rejects(text: String, expected: EventParseError) throws {
        let json = try JSONValue.parse(text)
        #expect(throws: expected) { try NavigationState(json: json) }
    }
}
