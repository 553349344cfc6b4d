import Testing
@testable import NavLogCore

/// The line parser's scan-time shortcuts (known keys matched as two words,
/// the repeated session id, a canonical `t`, a plain `seq`, a route under
/// `value`, short names cached) accept and reject exactly what the general
/// scan does.
@Suite("Parser scan fast paths")
struct ParserScanFastPathTests {
    static let head = #"{"session":"s-1","t":"2026-11-20T10:00:00.000Z","#

    static func parse(_ line: String) throws(EventParseError) -> Event {
        try EventParser.parse(line)
    }

    static func error(_ line: String) -> EventParseError? {
        do { _ = try parse(line); return nil } catch { return error }
    }

    @Test func aRouteUnderValueIsCheckedToItsClosingBrace() {
        // Without the check, the `]` would pass for the route's `}` and the line be accepted.
        let bad = Self.head + #""type":"stack.push","stack":"a","value":{"id":"b","type":"A"]}"#
        guard case .invalidJSON? = Self.error(bad) else {
            Issue.record("expected invalid JSON, got \(String(describing: Self.error(bad)))")
            return
        }
    }

    @Test func aValueThatIsNoRouteStaysAnExtraFieldOfOtherKinds() throws {
        let notRoute = try Self.parse(Self.head + #""label":"x","type":"mark","value":{"foo":1}}"#)
        #expect(notRoute.kind == .mark(label: "x"))
        #expect(notRoute.extra["value"] == .object(["foo": .number("1")]))
        let emptyType = try Self.parse(Self.head + #""label":"x","type":"mark","value":{"type":""}}"#)
        #expect(emptyType.extra["value"] == .object(["type": .string("")]))
        let route = try Self.parse(Self.head + #""label":"x","type":"mark","value":{"id":"7","type":"Recipe"}}"#)
        #expect(route.extra["value"] == .object(["id": .string("7"), "type": .string("Recipe")]))
    }

    @Test func aPushWithoutARouteTypeIsStillRejected() {
        let line = Self.head + #""stack":"a","type":"stack.push","value":{"id":"x"}}"#
        #expect(Self.error(line) == .missingField(field: "value.type"))
    }

    @Test func seqForms() throws {
        func seq(_ text: String) throws(EventParseError) -> Int {
            try Self.parse(#"{"seq":"# + text + #","session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"l"}"#).seq
        }
        #expect(try seq("5") == 5)
        #expect(try seq("5 ") == 5)
        #expect(try seq("1234567890123456789") == 1_234_567_890_123_456_789)
        #expect(try seq("9223372036854775807") == Int.max)
        #expect(throws: EventParseError.invalidValue(field: "seq", reason: "integer out of range")) { try seq("9223372036854775808") }
        #expect(throws: EventParseError.invalidValue(field: "seq", reason: "must be ≥ 1, found 0")) { try seq("0") }
        #expect(throws: EventParseError.self) { try seq("01") }
        #expect(throws: EventParseError.self) { try seq("-3") }
        #expect(throws: EventParseError.self) { try seq("2.5") }
        #expect(throws: EventParseError.self) { try seq("1e3") }
    }

    @Test func theRepeatedSessionIsReusedOnlyWhenItsBytesMatch() throws {
        var parser = EventLineParser()
        func session(_ raw: String) throws -> String {
            try parser.parse(Array((#"{"label":"l","session":"# + raw + #","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#).utf8)).session
        }
        #expect(try session(#""s-1""#) == "s-1")
        #expect(try session(#""s-1""#) == "s-1")
        #expect(try session(#""s-10""#) == "s-10")
        #expect(try session(#""s-1""#) == "s-1")
        #expect(try session(#""s\u002d1""#) == "s-1")
        #expect(try session(#""s-""#) == "s-")
        #expect(throws: EventParseError.self) { try session(#""s-1"#) }
    }

    @Test func timestampsOffTheCanonicalFormTakeTheGeneralPath() throws {
        func t(_ text: String) throws(EventParseError) -> Timestamp {
            try Self.parse(#"{"label":"l","session":"s","t":""# + text + #"","type":"mark"}"#).t
        }
        #expect(try t("2026-11-20T10:00:00.000Z") == Timestamp(rfc3339: "2026-11-20T10:00:00Z"))
        #expect(try t("2026-11-20T10:00:00Z") == Timestamp(rfc3339: "2026-11-20T10:00:00Z"))
        #expect(try t("2026-11-20T11:00:00.000+01:00") == Timestamp(rfc3339: "2026-11-20T10:00:00Z"))
        #expect(throws: EventParseError.self) { try t("2026-13-20T10:00:00.000Z") }
        #expect(throws: EventParseError.self) { try t("2026-11-20T10:00:60.000Z") }
    }

    @Test func keysSpelledWithEscapesOrSpacesMeanTheSameField() throws {
        let plain = try Self.parse(#"{"label":"l","seq":3,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#)
        let escaped = try Self.parse(#"{"label":"l","s\u0065q":3,"session":"s","t":"2026-11-20T10:00:00.000Z","typ\u0065":"mark"}"#)
        let spaced = try Self.parse(#"{ "label" : "l" , "seq" : 3 , "session" : "s" , "t" : "2026-11-20T10:00:00.000Z" , "type" : "mark" }"#)
        #expect(escaped == plain)
        #expect(spaced == plain)
        #expect(Self.error(#"{"seq":1,"s\u0065q":2,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"l"}"#)
                == .duplicateKey(field: "seq"))
        // A short line: its last keys are too near the end for the two-word match.
        #expect(try Self.parse(#"{"session":"s","t":"2026-11-20T10:00:00Z","type":"x"}"#).kind == .other(type: "x"))
    }

    @Test func cachedNamesAreTheNamesOfTheirBytes() throws {
        // Names of every length the cache keeps and beyond, colliding or not,
        // in a jumbled repeating order.
        var parser = EventLineParser()
        let names = (1...20).flatMap { n in ["a", "é", "x-"].map { String(repeating: $0, count: n) } } + ["ü", "ab", "ba", "日本"]
        for round in 0..<5 {
            for (k, name) in names.enumerated() where (k + round) % 3 != 0 {
                let line = #"{"label":"l","session":"s","stack":""# + name + #"","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":""# + name + #"","type":""# + name + #""}}"#
                let event = try parser.parse(Array(line.utf8))
                #expect(event.kind == .stackPush(stack: name, value: RouteValue(type: name, id: name)))
            }
        }
    }
}
