import Testing
@testable import NavLogCore

/// Every malformed line is rejected with a typed reason, never a crash (docs/events.md).
@Suite("Malformed input")
struct MalformedInputTests {
    static let ok = #""session":"s","t":"2026-11-20T10:00:00Z""#

    /// A file saved with a byte order mark: its first line says so.
    @Test func aByteOrderMarkIsNamed() throws {
        let line = [0xEF, 0xBB, 0xBF] + Array(#"{"session":"s","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"#.utf8)
        #expect(throws: EventParseError.invalidJSON(offset: 0, reason: "a UTF-8 byte order mark (EF BB BF), expected '{'; save the file without it")) {
            try EventParser.parse(line)
        }
    }

    static func reject(_ line: String) -> EventParseError? {
        do {
            _ = try EventParser.parse(line)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("", EventParseError.notAnObject(found: "an empty line")),
        ("[]", .notAnObject(found: "array")),
        ("42", .notAnObject(found: "number")),
        (#""str""#, .notAnObject(found: "string")),
        (#"{"session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "type")),
        (#"{"type":"mark","label":"x","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "session")),
        (#"{"type":"mark","label":"x","session":"s"}"#, .missingField(field: "t")),
        (#"{"type":"mark","label":"x","session":null,"t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "session")),
        (#"{"type":"mark","label":"x","session":"s","t":null}"#, .missingField(field: "t")),
        (#"{"type":null,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "type")),
        (#"{"type":"","session":"s","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "type", reason: "must not be empty")),
        (#"{"type":"mark","label":"x","session":"","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "session", reason: "must not be empty")),
        (#"{"type":"mark","label":"x","session":7,"t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "session", expected: "a string", found: "number")),
        (#"{"type":3,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "type", expected: "a string", found: "number")),
        (#"{"type":"mark","label":"x","session":"s","t":1700000000}"#, .wrongType(field: "t", expected: "an RFC 3339 string", found: "number")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20 10:00:00"}"#, .invalidValue(field: "t", reason: #"not a strict RFC 3339 timestamp (character 11 is ' ', expected 'T'): "2026-11-20 10:00:00""#)),
        // Strict RFC 3339, but before year 0000 or after 9999 in UTC: refused for its range, not its form.
        (#"{"type":"mark","label":"x","session":"s","t":"0000-01-01T00:00:00+01:00"}"#, .invalidValue(field: "t", reason: #"outside years 0000–9999 once converted to UTC: "0000-01-01T00:00:00+01:00""#)),
        (#"{"type":"mark","label":"x","session":"s","t":"9999-12-31T23:59:59-01:00"}"#, .invalidValue(field: "t", reason: #"outside years 0000–9999 once converted to UTC: "9999-12-31T23:59:59-01:00""#)),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","seq":0}"#, .invalidValue(field: "seq", reason: "must be ≥ 1, found 0")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","seq":-3}"#, .invalidValue(field: "seq", reason: "must be ≥ 1, found -3")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","seq":3.0}"#, .wrongType(field: "seq", expected: "an integer", found: "a number with a fraction or exponent")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","seq":1e2}"#, .wrongType(field: "seq", expected: "an integer", found: "a number with a fraction or exponent")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","seq":"3"}"#, .wrongType(field: "seq", expected: "an integer", found: "string")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","seq":true}"#, .wrongType(field: "seq", expected: "an integer", found: "boolean")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","seq":99999999999999999999}"#, .invalidValue(field: "seq", reason: "integer out of range")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","scene":1}"#, .wrongType(field: "scene", expected: "a string", found: "number")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","cause":"1"}"#, .wrongType(field: "cause", expected: "an integer", found: "string")),
        (#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","meta":[1]}"#, .wrongType(field: "meta", expected: "an object", found: "array")),
        (#"{"type":"mark","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "label")),
        (#"{"type":"mark","label":null,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "label")),
        (#"{"type":"stack.pop","stack":"home","count":0,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "count", reason: "must be ≥ 1, found 0")),
        (#"{"type":"stack.pop","stack":"home","count":1.5,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "count", expected: "an integer", found: "a number with a fraction or exponent")),
        (#"{"type":"stack.pop","count":1,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "stack")),
        (#"{"type":"stack.push","stack":"home","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "value")),
        (#"{"type":"stack.push","stack":"home","value":"Recipe","session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "value", expected: "a route value object", found: "string")),
        (#"{"type":"stack.push","stack":"home","value":{"id":"x"},"session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "value.type")),
        (#"{"type":"stack.push","stack":"home","value":{"type":""},"session":"s","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "value.type", reason: "must not be empty")),
        (#"{"type":"stack.push","stack":"home","value":{"type":1},"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "value.type", expected: "a string", found: "number")),
        (#"{"type":"stack.push","stack":"home","value":{"type":"R","id":1.5},"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "value.id", expected: "a string or an integer", found: "a number with a fraction or exponent")),
        (#"{"type":"stack.push","stack":"home","value":{"type":"R","id":true},"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "value.id", expected: "a string or an integer", found: "boolean")),
        (#"{"type":"stack.set","stack":"home","path":[{"type":"A"},{"id":"2"}],"session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "path[1].type")),
        (#"{"type":"stack.set","stack":"home","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "path")),
        (#"{"type":"stack.set","stack":"home","path":{},"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "path", expected: "an array of route values", found: "object")),
        (#"{"type":"tabs.define","tabs":["a",2],"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "tabs[1]", expected: "a string", found: "number")),
        (#"{"type":"tab.visibility","tab":"a","hidden":"yes","session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "hidden", expected: "a boolean", found: "string")),
        (#"{"type":"tab.visibility","tab":"a","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "hidden")),
        (#"{"type":"split.select","column":"middle","selection":[],"session":"s","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "column", reason: #""middle" is not one of sidebar, content, detail"#)),
        (#"{"type":"split.select","selection":[],"session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "column")),
        (#"{"type":"split.select","column":"detail","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "selection")),
        (#"{"type":"split.visibility","split":"main","visibility":"some","session":"s","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "visibility", reason: #""some" is not one of all, doubleColumn, detailOnly, automatic"#)),
        (#"{"type":"modal.present","modal":"m","style":"drawer","session":"s","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "style", reason: #""drawer" is not one of sheet, fullScreenCover, popover, alert, confirmationDialog, inspector"#)),
        (#"{"type":"modal.present","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "modal")),
        (#"{"type":"modal.dismiss","modal":5,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "modal", expected: "a string", found: "number")),
        (#"{"type":"layout.change","sizeClass":"large","session":"s","t":"2026-11-20T10:00:00Z"}"#, .invalidValue(field: "sizeClass", reason: #""large" is not one of compact, regular"#)),
        (#"{"type":"url.open","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "url")),
        (#"{"type":"session.start","app":"3.2","session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "app", expected: "an object", found: "string")),
        (#"{"type":"state.restore","session":"s","t":"2026-11-20T10:00:00Z"}"#, .missingField(field: "state")),
        (#"{"type":"state.restore","state":[],"session":"s","t":"2026-11-20T10:00:00Z"}"#, .wrongType(field: "state", expected: "an object", found: "array")),
        (#"{"type":"mark","label":"x","label":"y","session":"s","t":"2026-11-20T10:00:00Z"}"#, .duplicateKey(field: "label")),
        (#"{"type":"x","k":1,"k":2,"session":"s","t":"2026-11-20T10:00:00Z"}"#, .duplicateKey(field: "k")),
        (#"{"type":"x","session":"s","t":"2026-11-20T10:00:00Z","meta":{"a":1,"a":2}}"#, .duplicateKey(field: "a")),
    ])
    func rejectsWithReason(line: String, expected: EventParseError) {
        #expect(Self.reject(line) == expected)
    }

    @Test(arguments: [
        #"{"#, #"{"type":"mark""#, #"{"type":"mark",}"#, #"{"type" "mark"}"#, #"{type:"mark"}"#,
        #"{"type":'mark'}"#, #"{"type":"mark"} x"#, #"{"type":"mark"}{}"#, #"{"a":tru}"#, #"{"a":nul}"#,
        #"{"a":01}"#, #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":-}"#, #"{"a":+1}"#, #"{"a":1e}"#, #"{"a":[1,]}"#,
        #"{"a":"\x"}"#, #"{"a":"\u12"}"#, #"{"a":"\ud800"}"#, #"{"a":"\udc00\ud800"}"#, #"{"a":"unterminated}"#,
        "{\"a\":\"tab\there\"}", "{\"a\":\"nl\nhere\"}", #"{"a":NaN}"#, #"{"a":Infinity}"#,
        // A known key without its opening quote (the key matcher once took these).
        #"{.seq":10,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark","label":"x"}"#,
        #"{"label":"x",zsession":"s","seq":1,"t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        #"{"label":"x","seq":1,"session":"s",{t":"2026-11-20T10:00:00.000Z","type":"mark"}"#,
        // Cut off right after a key the parser decodes early (read past the end once).
        #"{"seq":18,"session":"s-000001","n":"s-000001","value":"#,
    ])
    func rejectsInvalidJSON(line: String) {
        guard case .invalidJSON = Self.reject(line) else {
            Issue.record("expected invalidJSON for \(line), got \(String(describing: Self.reject(line)))")
            return
        }
    }

    @Test(arguments: [
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0x22, 0x7D],  // {"a":"\xFF"}
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x22, 0x7D],  // truncated 2-byte
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC0, 0xAF, 0x22, 0x7D],  // overlong '/'
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x7D],  // UTF-8 surrogate
        [0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xF4, 0x90, 0x80, 0x80, 0x22, 0x7D],  // > U+10FFFF
        [0x7B, 0x22, 0xE9, 0x22, 0x3A, 0x31, 0x7D],  // bad byte in a key
    ] as [[UInt8]])
    func rejectsInvalidUTF8(bytes: [UInt8]) {
        do {
            _ = try EventParser.parse(bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            guard case .invalidUTF8 = error else { Issue.record("expected invalidUTF8, got \(error)"); return }
        }
    }

    @Test func rejectsBytesOutsideStrings() {
        guard case .invalidJSON = Self.reject("{\"a\":1,\u{e9}}") else { Issue.record("accepted"); return }
    }

    @Test func rejectsLinesOverTheLimit() {
        let padding = String(repeating: "x", count: EventParser.maxLineBytes)
        let line = #"{"type":"mark","label":"\#(padding)","session":"s","t":"2026-11-20T10:00:00Z"}"#
        #expect(Self.reject(line) == .lineTooLong(bytes: line.utf8.count, limit: EventParser.maxLineBytes))
    }

    @Test func acceptsLinesJustUnderTheLimit() throws {
        let head = #"{"type":"mark","label":""#
        let tail = #"","session":"s","t":"2026-11-20T10:00:00Z"}"#
        let padding = String(repeating: "x", count: EventParser.maxLineBytes - head.utf8.count - tail.utf8.count)
        _ = try EventParser.parse(head + padding + tail)
    }

    @Test func rejectsDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let prefix = #"{"type":"x","session":"s","t":"2026-11-20T10:00:00Z","deep":"#
        // The object is level 1, so the 64th '[' is the first level over the limit.
        #expect(Self.reject(prefix + deep + "}") == .nestedTooDeep(offset: prefix.utf8.count + 63, limit: EventParser.maxDepth))
    }

    @Test func acceptsNestingAtTheLimit() throws {
        let depth = EventParser.maxDepth - 1  // the event object itself is one level
        let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        _ = try EventParser.parse(#"{"type":"x","session":"s","t":"2026-11-20T10:00:00Z","deep":\#(deep)}"#)
    }

    @Test func errorDescriptionsAreOneLine() {
        let errors: [EventParseError] = [
            .invalidJSON(offset: 3, reason: "unexpected '}'"), .invalidUTF8(offset: 9),
            .lineTooLong(bytes: 2_000_000, limit: 1 << 20), .missingField(field: "t"),
            .wrongType(field: "seq", expected: "an integer", found: "string"),
            .seqNotIncreasing(seq: 3, previous: 5),
        ]
        for e in errors {
            #expect(!e.description.contains("\n"))
            #expect(!e.description.isEmpty)
        }
        #expect(EventParseError.missingField(field: "t").description == #"missing required field "t""#)
    }

    @Test func sequencerAssignsAndChecks() throws {
        var seq = Sequencer()
        var a = try EventParser.parse(#"{"type":"x","session":"a","t":"2026-11-20T10:00:00Z"}"#)
        try seq.accept(&a)
        #expect(a.seq == 1)
        var b = try EventParser.parse(#"{"type":"x","session":"a","seq":5,"t":"2026-11-20T10:00:00Z"}"#)
        try seq.accept(&b)
        var c = try EventParser.parse(#"{"type":"x","session":"a","seq":5,"t":"2026-11-20T10:00:00Z"}"#)
        #expect(throws: EventParseError.seqNotIncreasing(seq: 5, previous: 5)) { try seq.accept(&c) }
        var d = try EventParser.parse(#"{"type":"x","session":"a","t":"2026-11-20T10:00:00Z"}"#)
        try seq.accept(&d)
        #expect(d.seq == 6)  // the rejected line used up nothing
        var other = try EventParser.parse(#"{"type":"x","session":"b","t":"2026-11-20T10:00:00Z"}"#)
        try seq.accept(&other)
        #expect(other.seq == 1)
    }
}
