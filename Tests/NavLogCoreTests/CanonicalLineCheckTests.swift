import Testing
@testable import NavLogCore
import NavLogSample

/// `EventLineParser.lastLineIsCanonical`: never true for a line that is not
/// exactly its event's canonical form, and true for the canonical lines of
/// the common kinds.
@Suite("Canonical line check")
struct CanonicalLineCheckTests {
    /// Parses with the check on; when the line is called canonical, asserts
    /// that the canonical writer gives exactly its bytes. Returns the flag,
    /// or nil for a rejected line.
    static func check(_ line: [UInt8], _ parser: inout EventLineParser,
                      sourceLocation: SourceLocation = #_sourceLocation) -> Bool? {
        guard let event = try? parser.parse(line) else {
            #expect(!parser.lastLineIsCanonical, sourceLocation: sourceLocation)
            return nil
        }
        if parser.lastLineIsCanonical {
            var writer = CanonicalWriter()
            writer.write(event)
            #expect(writer.bytes == line, "called canonical: \(String(decoding: line, as: UTF8.self))",
                    sourceLocation: sourceLocation)
        }
        return parser.lastLineIsCanonical
    }

    static func generatedLines(sessions: Int = 30, seed: UInt64 = 23,
                               eventsPerSession: ClosedRange<Int> = 50...400) -> [(Event, [UInt8])] {
        let generator = SampleGenerator(.init(sessions: sessions, seed: seed, eventsPerSession: eventsPerSession, interleave: true))
        var writer = CanonicalWriter()
        return generator.events().map { event in
            writer.reset()
            writer.write(event)
            return (event, writer.bytes)
        }
    }

    /// Kinds whose canonical lines the check gives up on.
    static let uncheckedKinds: Set<String> = ["state.restore"]

    @Test func canonicalLinesOfTheCommonKindsAreRecognised() {
        var parser = EventLineParser(checkingCanonicalForm: true)
        var recognised = 0, total = 0
        for (event, line) in Self.generatedLines() {
            let flag = Self.check(line, &parser)
            total += 1
            if flag == true { recognised += 1 }
            let simple = !Self.uncheckedKinds.contains(event.type) && !line.contains(UInt8(ascii: "\\"))
                && event.extra.values.allSatisfy { if case .object = $0 { false } else if case .array = $0 { false } else { true } }
            if simple { #expect(flag == true, "not recognised: \(String(decoding: line, as: UTF8.self))") }
        }
        #expect(recognised * 100 >= total * 95, "recognised \(recognised) of \(total)")
    }

    @Test func aParserWithoutTheCheckNeverSaysCanonical() throws {
        var parser = EventLineParser()
        for (_, line) in Self.generatedLines().prefix(200) {
            _ = try parser.parse(line)
            #expect(!parser.lastLineIsCanonical)
        }
    }

    @Test func lineVariantsThatAreNotCanonicalAreNotCalledSo() {
        let base = #"{"cause":3,"seq":7,"session":"s-1","stack":"home","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":"r-1","type":"Recipe"}}"#
        var parser = EventLineParser(checkingCanonicalForm: true)
        #expect(Self.check(Array(base.utf8), &parser) == true)
        // An empty meta is kept, and written back as it is: canonical too.
        #expect(Self.check(Array(base.replacingFirst(#""cause":3,"#, with: #""cause":3,"meta":{},"#).utf8), &parser) == true)
        let variants = [
            base.replacingFirst(#""seq":7"#, with: #""seq": 7"#),
            base.replacingFirst(#""seq":7"#, with: #""seq" :7"#),
            base.replacingFirst(#""seq":7,"#, with: #""seq":7 ,"#),
            " " + base, base + " ", base.replacingFirst("{", with: "{ "), base.replacingFirst("}}", with: "} }"),
            base.replacingFirst(#""cause":3,"seq":7"#, with: #""seq":7,"cause":3"#),
            base.replacingFirst(#""cause":3"#, with: #""cause":03"#),
            base.replacingFirst(#""cause":3"#, with: #""cause":-0"#),
            base.replacingFirst(#""seq":7,"#, with: ""),
            base.replacingFirst(".000Z", with: "Z"),
            base.replacingFirst(".000Z", with: ".000+00:00"),
            base.replacingFirst(#""home""#, with: #""h\u006fme""#),
            base.replacingFirst(#""stack":"home""#, with: #""st\u0061ck":"home""#),
            base.replacingFirst(#""r-1""#, with: "1"),
            base.replacingFirst(#"{"id":"r-1","type":"Recipe"}"#, with: #"{"type":"Recipe","id":"r-1"}"#),
            base.replacingFirst(#"{"id":"r-1","type":"Recipe"}"#, with: #"{"id":"r-1","type":"Recipe","x":1}"#),
            base.replacingFirst(#"{"id":"r-1","type":"Recipe"}"#, with: #"{"id":"r-1","type":"Recipe","data":null}"#),
            base.replacingFirst(#"{"id":"r-1","type":"Recipe"}"#, with: #"{"id":"r-1", "type":"Recipe"}"#),
            base.replacingFirst(#""cause":3,"#, with: #""cause":3,"scene":null,"#),
            base.replacingFirst(#""cause":3,"#, with: #""cause":3,"label":"x","#),
            base.replacingFirst(#""cause":3,"#, with: #""zzz":1,"cause":3,"#),
            base.replacingFirst(#""cause":3,"#, with: #""cause":3,"extra":"a\/b","#),
            base.replacingFirst(#""cause":3,"#, with: #""cause":3,"extra":{"b":1,"a":2},"#),
            base.replacingFirst(#""cause":3,"#, with: #""cause":3,"extra":null,"#),
        ]
        for variant in variants {
            #expect(variant != base)
            #expect(Self.check(Array(variant.utf8), &parser) != true, "called canonical: \(variant)")
        }
    }

    @Test func routeArraysMetaAndObjectsAreCheckedByWritingThemAgain() {
        let select = #"{"column":"content","meta":{"n":1.50,"source":"push","tags":["a","b"]},"selection":[{"id":"r-1","type":"Recipe"},{"type":"Home"}],"seq":7,"session":"s-1","split":"main","t":"2026-11-20T10:00:00.000Z","type":"split.select"}"#
        let set = #"{"path":[{"data":{"x":[1,true]},"id":"7","type":"Step"}],"seq":8,"session":"s-1","stack":"home","t":"2026-11-20T10:00:00.000Z","type":"stack.set"}"#
        let push = #"{"seq":9,"session":"s-1","stack":"home","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"data":{"query":"salad","rank":1},"id":"caesar-salad","type":"Recipe"}}"#
        let start = #"{"app":{"build":"12","version":"3.1"},"device":{"model":"iPad"},"seq":1,"session":"s-1","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#
        let tabs = #"{"seq":2,"session":"s-1","t":"2026-11-20T10:00:00.000Z","tabs":["home","search"],"type":"tabs.define"}"#
        var parser = EventLineParser(checkingCanonicalForm: true)
        for base in [select, set, push, start, tabs] {
            #expect(Self.check(Array(base.utf8), &parser) == true, "not recognised: \(base)")
        }
        let variants = [
            select.replacingFirst(#"},{"type""#, with: #"}, {"type""#),
            select.replacingFirst(#""selection":["#, with: #""selection":[ "#),
            select.replacingFirst(#""Home"}]"#, with: #""Home"} ]"#),
            select.replacingFirst(#"{"type":"Home"}"#, with: #"{"type":"H\u006fme"}"#),
            select.replacingFirst(#"{"id":"r-1","type":"Recipe"}"#, with: #"{"type":"Recipe","id":"r-1"}"#),
            select.replacingFirst(#""n":1.50,"source":"push""#, with: #""source":"push","n":1.50"#),
            select.replacingFirst(#""tags":["a","b"]"#, with: #""tags":["a", "b"]"#),
            select.replacingFirst(#""source":"push""#, with: #""source":"p\/ush""#),
            select.replacingFirst(#"{"n""#, with: #"{ "n""#),
            set.replacingFirst(#"{"x":[1,true]}"#, with: #"{"x":[1,true ]}"#),
            set.replacingFirst(#""id":"7""#, with: #""id":7"#),
            push.replacingFirst(#""query":"salad","rank":1"#, with: #""rank":1,"query":"salad""#),
            push.replacingFirst(#""rank":1"#, with: #""rank": 1"#),
            push.replacingFirst(#"{"data":{"query":"salad","rank":1},"id":"caesar-salad","type":"Recipe"}"#,
                                with: #"{"id":"caesar-salad","data":{"query":"salad","rank":1},"type":"Recipe"}"#),
            push.replacingFirst(#""salad","rank""#, with: #""s\u0061lad","rank""#),
            start.replacingFirst(#"{"build":"12","version":"3.1"}"#, with: #"{"version":"3.1","build":"12"}"#),
            tabs.replacingFirst(#"["home","search"]"#, with: #"["home" ,"search"]"#),
            tabs.replacingFirst(#""home""#, with: #""h\u006fme""#),
        ]
        for variant in variants {
            #expect(!select.isEmpty && variant != select && variant != set && variant != push && variant != start && variant != tabs)
            #expect(Self.check(Array(variant.utf8), &parser) != true, "called canonical: \(variant)")
        }
    }

    @Test func randomEditsOfCanonicalLinesAreNeverMisjudged() {
        // Single-byte edits (insert, delete, replace) of canonical lines: any
        // that still parses and is called canonical must be canonical (check()).
        var parser = EventLineParser(checkingCanonicalForm: true)
        var edits = RandomLineEdits(seed: 99, alphabet: Array(#" "\{}[],:0123456789-.aeiostxyzTZ"#.utf8))
        var parsed = 0
        for (_, line) in Self.generatedLines().prefix(3000) {
            for _ in 0..<4 {
                if Self.check(edits.edit(line), &parser) != nil { parsed += 1 }
            }
        }
        #expect(parsed > 1000, "only \(parsed) edited lines parsed")
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        let bytes = Array(utf8), t = Array(target.utf8)
        guard t.count <= bytes.count,
              let at = (0...(bytes.count - t.count)).first(where: { bytes[$0..<($0 + t.count)].elementsEqual(t) })
        else { return self }
        return String(decoding: bytes[..<at] + Array(replacement.utf8) + bytes[(at + t.count)...], as: UTF8.self)
    }
}
