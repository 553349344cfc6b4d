import NavLogCore
import Testing

/// How values from events are printed in the readable outputs: control
/// characters escaped, nothing else touched.
@Suite("Readable text")
struct ReadableTextTests {
    @Test func controlCharactersAreEscapedAsJSONWritesThem() {
        #expect(ReadableText.escaped("ma\u{1B}[2Jin") == #"ma\u001b[2Jin"#)
        #expect(ReadableText.escaped("a\nb\rc\td\u{08}e\u{0C}f") == #"a\nb\rc\td\be\ff"#)
        #expect(ReadableText.escaped("\u{07}\u{7F}\u{9B}\u{2028}\u{2029}") == #"\u0007\u007f\u009b\u2028\u2029"#)
        #expect(ReadableText.escaped("\u{0}") == #"\u0000"#)
    }

    @Test func everyOtherCharacterIsKept() {
        for text in ["", "Recipe/apple-pie", "café", "cafe\u{301}", "日本語", "emoji 🍰", "\u{A0}nbsp", "back\\slash", "\"quoted\""] {
            #expect(ReadableText.escaped(text) == text)
        }
    }

    @Test func anEmptyNameIsShownAsTwoQuotes() {
        #expect(ReadableText.name("") == #""""#)
        #expect(ReadableText.name("home") == "home")
        #expect(ReadableText.name("\u{1B}") == #"\u001b"#)
    }

    @Test func screensAreEscapedToo() {
        #expect(ReadableText.screen(RouteValue(type: "Evil\u{1B}[31m", id: "line\nbreak")) == #"Evil\u001b[31m/line\nbreak"#)
        #expect(ReadableText.screen(RouteValue(type: "Recipe")) == "Recipe")
    }

    @Test func effectsDescribeEscapedValues() {
        let pushed = EventEffect.pushed([RouteValue(type: "A\u{1B}", id: "1")], stack: "ho\nme")
        #expect(pushed.description == #"pushed A\u001b/1 on ho\nme"#)
        #expect(EventEffect.mark("\u{1B}]0;title\u{07}").description == #"mark \u001b]0;title\u0007"#)
    }
}
