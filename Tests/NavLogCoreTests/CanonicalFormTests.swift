import Testing
@testable import NavLogCore

/// Canonical form (docs/events.md): parse → canonical is exact, and canonical →
/// parse → canonical is byte-identical.
@Suite("Canonical form")
struct CanonicalFormTests {
    static let t0 = #""t":"2026-11-20T10:00:05.120Z""#

    /// Lines already in canonical form, one per event kind and then some.
    static let canonicalLines: [String] = [
        #"{"app":{"build":17,"version":"3.2.0"},"device":{"idiom":"pad","os":"18.1"},"seq":1,"session":"s-1","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        #"{"seq":2,"session":"s-1","t":"2026-11-20T10:00:00.001Z","type":"session.end"}"#,
        #"{"scene":"scene-2","seq":3,"session":"s-1","t":"2026-11-20T10:00:01.000Z","type":"scene.open"}"#,
        #"{"scene":"scene-2","seq":4,"session":"s-1","t":"2026-11-20T10:00:01.000Z","type":"scene.close"}"#,
        #"{"seq":5,"session":"s-1","t":"2026-11-20T10:00:02.000Z","tabs":["home","search","settings"],"type":"tabs.define"}"#,
        #"{"seq":6,"session":"s-1","t":"2026-11-20T10:00:02.500Z","tab":"search","type":"tab.select"}"#,
        #"{"hidden":true,"seq":7,"session":"s-1","t":"2026-11-20T10:00:03.000Z","tab":"settings","type":"tab.visibility"}"#,
        #"{"seq":8,"session":"s-1","stack":"home","t":"2026-11-20T10:00:04.000Z","type":"stack.push","value":{"id":"desserts","type":"Category"}}"#,
        #"{"count":2,"seq":9,"session":"s-1","stack":"home","t":"2026-11-20T10:00:05.000Z","type":"stack.pop"}"#,
        #"{"seq":10,"session":"s-1","stack":"home","t":"2026-11-20T10:00:05.000Z","type":"stack.pop"}"#,
        #"{"seq":11,"session":"s-1","stack":"home","t":"2026-11-20T10:00:06.000Z","type":"stack.popToRoot"}"#,
        #"{"path":[{"id":"desserts","type":"Category"},{"data":{"servings":4.50},"id":"apple-pie","type":"Recipe"}],"seq":12,"session":"s-1","stack":"home","t":"2026-11-20T10:00:07.000Z","type":"stack.set"}"#,
        #"{"column":"sidebar","selection":[{"id":"a","type":"Folder"},{"id":"b","type":"Folder"}],"seq":13,"session":"s-1","t":"2026-11-20T10:00:08.000Z","type":"split.select"}"#,
        #"{"column":"detail","selection":[],"seq":14,"session":"s-1","split":"browse","t":"2026-11-20T10:00:08.000Z","type":"split.select"}"#,
        #"{"seq":15,"session":"s-1","split":"main","t":"2026-11-20T10:00:09.000Z","type":"split.visibility","visibility":"doubleColumn"}"#,
        #"{"modal":"compose","seq":16,"session":"s-1","style":"fullScreenCover","t":"2026-11-20T10:00:10.000Z","type":"modal.present"}"#,
        #"{"modal":"settings","seq":17,"session":"s-1","t":"2026-11-20T10:00:10.000Z","type":"modal.present"}"#,
        #"{"modal":"compose","seq":18,"session":"s-1","t":"2026-11-20T10:00:11.000Z","type":"modal.dismiss"}"#,
        #"{"seq":19,"session":"s-1","t":"2026-11-20T10:00:11.000Z","type":"modal.dismiss"}"#,
        #"{"seq":20,"session":"s-1","t":"2026-11-20T10:00:12.000Z","type":"url.open","url":"recipes://recipe/apple-pie"}"#,
        #"{"cause":20,"seq":21,"session":"s-1","stack":"home","t":"2026-11-20T10:00:12.000Z","type":"stack.popToRoot"}"#,
        #"{"seq":22,"session":"s-1","sizeClass":"compact","t":"2026-11-20T10:00:13.000Z","type":"layout.change"}"#,
        #"{"label":"purchase","meta":{"amount":"12.99","items":[1,2,{"z":null,"a":true}]},"seq":23,"session":"s-1","t":"2026-11-20T10:00:14.000Z","type":"mark"}"#,
        #"{"alpha":[1,2],"seq":24,"session":"s-1","t":"2026-11-20T10:00:15.000Z","type":"app.background","zeta":"kept"}"#,
        #"{"label":"","seq":25,"session":"s-1","t":"2026-11-20T10:00:15.000Z","type":"mark"}"#,
        #"{"seq":26,"session":"s-ünïcødé 🚀","t":"2026-11-20T10:00:15.000Z","type":"mark","label":"\"quoted\"\n\\ \u0001"}"#,
    ]

    @Test("canonical lines round-trip byte for byte", arguments: canonicalLines)
    func roundTrip(line: String) throws {
        let event = try EventParser.parse(line)
        let once = event.canonicalLine
        let twice = try EventParser.parse(once).canonicalLine
        #expect(once == twice)
        #expect(try EventParser.parse(once) == event)
    }

    @Test func canonicalLinesAreUnchangedByRewriting() throws {
        // All lines above except the two whose nested object and key order are not canonical.
        for line in Self.canonicalLines where !line.contains(#""z":null"#) && !line.contains("🚀") {
            #expect(try EventParser.parse(line).canonicalLine == line)
        }
    }

    @Test func nestedKeysAreSortedAndNestedNullsKept() throws {
        let e = try EventParser.parse(#"{"type":"mark","label":"x","session":"s","t":"2026-11-20T10:00:00Z","meta":{"b":1,"a":{"d":null,"c":[{"y":1,"x":2}]}}}"#)
        #expect(e.canonicalLine == #"{"label":"x","meta":{"a":{"c":[{"x":2,"y":1}],"d":null},"b":1},"session":"s","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#)
    }

    @Test func inputFormIsNormalised() throws {
        let input = #"  { "type" : "stack.push", "session":"s-1", "seq": 7, "t": "2026-11-20T11:00:05.123456789+01:00", "stack":"home", "value": {"type":"Recipe","id":42,"extra":"dropped","data":null}, "scene": null, "cause": null }  "#
        let e = try EventParser.parse(input)
        #expect(e.canonicalLine == #"{"seq":7,"session":"s-1","stack":"home","t":"2026-11-20T10:00:05.123Z","type":"stack.push","value":{"id":"42","type":"Recipe"}}"#)
    }

    @Test func defaultsAreNotFilledIn() throws {
        let e = try EventParser.parse(#"{"type":"stack.pop","stack":"home","session":"s","t":"2026-11-20T10:00:00Z"}"#)
        #expect(e.scene == nil)
        #expect(e.seq == 0)
        #expect(e.kind == .stackPop(stack: "home", count: nil))
        #expect(!e.canonicalLine.contains("count"))
        #expect(!e.canonicalLine.contains("scene"))
    }

    @Test func numbersAreKeptAsWritten() throws {
        let e = try EventParser.parse(#"{"type":"x","session":"s","t":"2026-11-20T10:00:00Z","n":[1.50,-0,1E+3,12345678901234567890123]}"#)
        #expect(e.canonicalLine.contains(#""n":[1.50,-0,1E+3,12345678901234567890123]"#))
    }

    @Test func unknownFieldsOnKnownKindsAreKept() throws {
        let e = try EventParser.parse(#"{"type":"stack.push","stack":"a","value":{"type":"V"},"session":"s","t":"2026-11-20T10:00:00Z","tab":"home","zz":{"k":1},"gone":null}"#)
        #expect(e.extra["tab"] == .string("home"))
        #expect(e.extra["zz"] == .object(["k": .number("1")]))
        #expect(e.extra["gone"] == nil)
        #expect(e.canonicalLine == #"{"session":"s","stack":"a","t":"2026-11-20T10:00:00.000Z","tab":"home","type":"stack.push","value":{"type":"V"},"zz":{"k":1}}"#)
    }

    @Test func escapedKeysAreRecognised() throws {
        let e = try EventParser.parse(#"{"t\u0079pe":"mark","label":"x","sess\u0069on":"s","t":"2026-11-20T10:00:00Z"}"#)
        #expect(e.session == "s")
        #expect(e.kind == .mark(label: "x"))
    }

    @Test func controlCharactersAreEscapedOnOutput() throws {
        let e = try EventParser.parse(#"{"type":"mark","label":"a\u0000b\u001fc\td\u007f\u00e9\ud83d\ude80","session":"s","t":"2026-11-20T10:00:00Z"}"#)
        guard case .mark(let label) = e.kind else { Issue.record("not a mark"); return }
        #expect(label == "a\u{0}b\u{1f}c\td\u{7f}é🚀")
        #expect(e.canonicalLine.contains(#""label":"a\u0000b\u001fc\td"#))
        #expect(e.canonicalLine.contains("\u{7f}é🚀\""))
    }
}
