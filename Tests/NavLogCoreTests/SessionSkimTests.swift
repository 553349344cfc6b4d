import Testing
import NavLogCore
import NavLogSample

/// `SessionSkim` finds a line's session without parsing it; whenever it
/// answers for a line the parser accepts, the answer must be exactly the
/// parsed session's UTF-8, and it must decline (nil) when it cannot be sure.
@Suite("Session skim")
struct SessionSkimTests {
    static func skim(_ line: String) -> String? {
        let bytes = Array(line.utf8)
        return bytes.withUnsafeBytes { raw in
            SessionSkim.sessionBytes(in: raw).map { String(decoding: bytes[$0], as: UTF8.self) }
        }
    }

    /// For a line the parser accepts, a skim answer equals the parsed session.
    static func agrees(_ line: [UInt8], _ parser: inout EventLineParser) -> (parsed: Bool, skimmed: Bool) {
        let range = line.withUnsafeBytes { SessionSkim.sessionBytes(in: $0) }
        guard let event = try? parser.parse(line) else { return (false, range != nil) }
        if let range {
            #expect(Array(line[range]) == Array(event.session.utf8),
                    "skimmed \(String(decoding: line[range], as: UTF8.self)) for \(String(decoding: line, as: UTF8.self))")
        }
        return (true, range != nil)
    }

    @Test func theTopLevelSessionIsFoundPastOtherValues() {
        let t = #""t":"2026-11-20T10:00:00.000Z""#
        #expect(Self.skim(#"{"seq":1,"session":"s-1",\#(t),"type":"mark","label":"x"}"#) == "s-1")
        #expect(Self.skim(#"{"meta":{"session":"fake","a":[{"session":"no"}]},"session":"real",\#(t)}"#) == "real")
        #expect(Self.skim(#"{"label":"\"session\":\"fake\"","session":"real"}"#) == "real")
        #expect(Self.skim(#"{"label":"a\\","session":"real"}"#) == "real")
        #expect(Self.skim(#"  { "x" : [ 1 , { "y" : null } ] ,  "session" :  "s 2" }"#) == "s 2")
        #expect(Self.skim(#"{"n":-1.5e3,"b":true,"z":null,"session":"é-1"}"#) == "é-1")
        #expect(Self.skim(#"{"session":""}"#) == "")
        #expect(Self.skim(#"{"sessionX":"a","sessio":"b","seq":1,"session":"c"}"#) == "c")
        #expect(Self.skim(#"{"b":true,"n":-1.5e3,"z":null,"s":"x","session":"plain"}"#) == "plain")
        // Arrays and objects before the session, written without spaces.
        #expect(Self.skim(#"{"column":"x","selection":[{"id":"a\"session\":\"b","type":"T"}],"seq":1,"session":"real"}"#) == "real")
        #expect(Self.skim(#"{"meta":{"a":"\\","b":["]","}"]},"session":"real"}"#) == "real")
        #expect(Self.skim(#"{"path":[],"m":{},"session":"real"}"#) == "real")
        #expect(Self.skim(#"{"path":[[[{"session":"no"}]]],"session":"real"}"#) == "real")
    }

    @Test func itDeclinesWhenItCannotBeSure() {
        #expect(Self.skim(#"{"sess\u0069on":"s-1","session":"s-2"}"#) == nil)     // an escaped key could be "session"
        #expect(Self.skim(#"{"label":"x","sess\u0069on":"s-1"}"#) == nil)
        #expect(Self.skim(#"{"session":"s\u002d1"}"#) == nil)                    // escapes in the id
        #expect(Self.skim(#"{"session":7}"#) == nil)
        #expect(Self.skim(#"{"session":null}"#) == nil)
        #expect(Self.skim(#"{"seq":1,"session":7,"session":"s-1"}"#) == nil)          // the first session is not a string
        #expect(Self.skim(#"{"seq":1 ,"session":"s-1"#) == nil)
        #expect(Self.skim(#"["session","s-1"]"#) == nil)
        #expect(Self.skim(#""session""#) == nil)
        #expect(Self.skim(#"{"label":"x"}"#) == nil)
        #expect(Self.skim(#"{"label":"x","session":"s-1"#) == nil)               // breaks off
        #expect(Self.skim(#"{"label":{"a":1,"session":"s-1"}"#) == nil)
        #expect(Self.skim(#"{"label" "x","session":"s-1"}"#) == nil)
        #expect(Self.skim(#"{"label":"x" "session":"s-1"}"#) == nil)
        #expect(Self.skim(#"{"path":[1,2]]"session":"s-1"}"#) == nil)
        #expect(Self.skim(#"{"path":[{"a":"b\"}],"session":"s-1"}"#) == nil)     // the string never ends
        #expect(Self.skim("") == nil)
    }

    @Test func itAgreesWithTheParserOnGeneratedLines() {
        let generator = SampleGenerator(.init(sessions: 20, seed: 5, eventsPerSession: 50...300, interleave: true))
        var writer = CanonicalWriter()
        var parser = EventLineParser()
        var skimmed = 0, total = 0
        for event in generator.events() {
            writer.reset()
            writer.write(event)
            let (parsed, found) = Self.agrees(writer.bytes, &parser)
            #expect(parsed)
            total += 1
            if found { skimmed += 1 }
        }
        #expect(skimmed == total, "skimmed \(skimmed) of \(total) canonical lines")
    }

    @Test func randomEditsNeverMakeItDisagreeWithTheParser() {
        let generator = SampleGenerator(.init(sessions: 10, seed: 8, eventsPerSession: 50...200, interleave: true))
        var writer = CanonicalWriter()
        var parser = EventLineParser()
        var edits = RandomLineEdits(seed: 31, alphabet: Array(#" "\{}[],:0123456789-.aeinostuTZ"#.utf8))
        var parsedAndSkimmed = 0
        for event in generator.events().prefix(3000) {
            writer.reset()
            writer.write(event)
            for _ in 0..<6 {
                let (parsed, found) = Self.agrees(edits.edit(writer.bytes), &parser)
                if parsed && found { parsedAndSkimmed += 1 }
            }
        }
        #expect(parsedAndSkimmed > 1500, "only \(parsedAndSkimmed) edited lines parsed and skimmed")
    }
}
