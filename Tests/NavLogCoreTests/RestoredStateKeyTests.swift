import Testing
@testable import NavLogCore

/// `EventLineParser.key(_:)`, the segment writer's read of a line: a
/// summary of every line ``summarize(_:)`` takes, and of a `state.restore`
/// line whose state the fast path checks without building it — only where
/// the general parser reads the line, to the same seq, `t` and session.
@Suite("Keys of state.restore lines")
struct RestoredStateKeyTests {
    /// Whether `key` made a summary of `line`; records an issue when it did
    /// for a line the parser refuses or reads otherwise, or when `summarize` did.
    @discardableResult
    static func check(_ line: [UInt8], _ keys: inout EventLineParser, _ parser: inout EventLineParser,
                      sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let text = String(decoding: line, as: UTF8.self)
        let event = try? parser.parse(line)
        return line.withUnsafeBytes { bytes -> Bool in
            guard let summary = keys.key(bytes) else { return false }
            guard let event else {
                Issue.record("a key of a line the parser refuses: \(text)", sourceLocation: sourceLocation)
                return true
            }
            #expect(summary.seq == event.seq && summary.t == event.t, "\(text)", sourceLocation: sourceLocation)
            #expect(Array(bytes[summary.session]) == Array(event.session.utf8), "\(text)", sourceLocation: sourceLocation)
            if case .stateRestore = event.kind {
                #expect(keys.summarize(bytes) == nil, "summarized: \(text)", sourceLocation: sourceLocation)
            }
            return true
        }
    }

    static func line(_ state: String) -> [UInt8] {
        Array((#"{"seq":4,"session":"s","state":"# + state + #","t":"2026-11-20T10:00:00.003Z","type":"state.restore"}"#).utf8)
    }

    /// Generated lines of many short sessions (a restore is often the second event).
    static func generatedLines() -> [(Event, [UInt8])] {
        CanonicalLineCheckTests.generatedLines(sessions: 600, seed: 29, eventsPerSession: 2...8)
    }

    @Test func generatedRestoresHaveKeys() {
        var keys = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        var restores = 0, keyed = 0
        for (event, line) in Self.generatedLines() {
            let made = Self.check(line, &keys, &parser)
            guard event.type == "state.restore" else { continue }
            restores += 1
            if made { keyed += 1 }
        }
        #expect(restores > 5 && keyed == restores, "\(keyed) of \(restores)")
    }

    /// States in the layout the fast path checks.
    static let checkedStates = [
        #"{}"#,
        #"{"modals":[{"modal":"m","style":"popover"},{"modal":"n"}],"screen":"x","sizeClass":"regular"}"#,
        #"{"splits":{"mail":{"content":[],"detail":[{"id":"1","type":"Mail"}],"visibility":"all"}},"stacks":{"a":[],"b":[{"type":"T"}]}}"#,
        #"{"tabs":{"hidden":["b"],"order":["a","b"],"selected":"a"}}"#,
        #"{"tabs":{}}"#,
        #"{"modals":null,"screen":null,"sizeClass":null,"splits":null,"stacks":null,"tabs":null}"#,
        #"{"modals":[{"modal":"m","style":null}],"splits":{"s":{"detail":null,"visibility":null}},"stacks":{"a":[{"id":null,"type":"T"}]},"tabs":{"hidden":null,"order":null,"selected":null}}"#,
        #"{"modals":[],"screen":"R/x","sizeClass":"compact","splits":{"a":{"sidebar":[{"id":"1","type":"C"}]},"b":{}},"stacks":{"h":[{"id":"s","type":"C"},{"id":"r","type":"R"}]},"tabs":{"hidden":["c","a"],"order":["a","b","a"],"selected":"z"}}"#,
    ]

    @Test(arguments: RestoredStateKeyTests.checkedStates)
    func statesTheFastPathChecksHaveKeys(_ state: String) {
        var keys = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        #expect(Self.check(Self.line(state), &keys, &parser), "no key: \(state)")
    }

    /// States outside it: refused by the parser, or read only by the general one.
    static let otherStates = [
        // Refused by the parser.
        #"{"sizeClass":"huge"}"#, #"{"modals":[{"style":"sheet"}]}"#, #"{"modals":[{"modal":"m","style":"cover"}]}"#,
        #"{"stacks":{"a":[{"id":"1"}]}}"#, #"{"stacks":{"a":[{"type":""}]}}"#, #"{"stacks":{"a":{}}}"#, #"{"stacks":[]}"#,
        #"{"splits":{"s":{"visibility":"half"}}}"#, #"{"splits":{"s":[]}}"#, #"{"tabs":{"order":[1]}}"#, #"{"tabs":[]}"#,
        #"{"screen":1}"#, #"[]"#, #""x""#, #"{"modals":{}}"#, #"{"stacks":{"a":null}}"#, #"{"splits":{"s":null}}"#,
        #"{"modals":[{"modal":null}]}"#, #"{"stacks":{"a":[{"type":null}]}}"#, #"{"modals":[null]}"#,
        // Read by the parser, left to it: unknown keys, order, escapes, spaces, numbers, data.
        #"{"other":null}"#, #"{"other":1}"#, #"{"screen":"x","modals":[]}"#, #"{"screen":"x","screen":"y"}"#,
        #"{"screen":"\u0041"}"#, #"{ "screen":"x"}"#, #"{"stacks":{"a":[{"id":1,"type":"T"}]}}"#,
        #"{"stacks":{"a":[{"data":1,"type":"T"}]}}"#, #"{"stacks":{"a":[{"type":"T","id":"1"}]}}"#,
        #"{"splits":{"s":{"extra":[]}}}"#, #"{"tabs":{"order":["a"],"other":1}}"#, #"{"modals":[{"modal":"m","x":1}]}"#,
        #"{"stacks":{"":[]}}"#, #"{"tabs":{"selected":""}}"#,
    ]

    @Test(arguments: RestoredStateKeyTests.otherStates)
    func otherStatesHaveNoKey(_ state: String) {
        var keys = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        #expect(!Self.check(Self.line(state), &keys, &parser), "a key: \(state)")
    }

    @Test func randomEditsHaveKeysOnlyAsTheParserReadsThem() {
        var keys = EventLineParser(checkingCanonicalForm: true)
        var parser = EventLineParser(checkingCanonicalForm: true)
        var edits = RandomLineEdits(seed: 43, alphabet: Array(#" "\{}[],:0123456789-.aeiostxyzTZ"#.utf8)
                                        + [0x00, 0x1F, 0x7F, 0xC3, 0xA9, 0xFF], repeatingRuns: true)
        let restores = Self.generatedLines().filter { $0.0.type == "state.restore" }.map(\.1)
        var made = 0
        for line in restores {
            for _ in 0..<100 where Self.check(edits.edit(line), &keys, &parser) { made += 1 }
        }
        #expect(made > 100, "only \(made) edited lines had keys")
    }
}
