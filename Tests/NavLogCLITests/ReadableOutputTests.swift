import Foundation
import Testing
import NavLogTestSupport

/// The readable outputs of the time-travel commands with values that could
/// drive a terminal or break a line: escaped, never printed raw; and diffs
/// of values that differ in their data alone.
@Suite("Readable output of hostile values")
struct ReadableOutputTests {
    /// Two events whose session, stack, route and label carry escape
    /// sequences, a BEL and line breaks.
    static let hostile = [
        #"{"session":"E\u001b[31mX","t":"2026-11-20T10:00:00Z","type":"stack.push","stack":"ma\nin","value":{"type":"Evil\u001b[2J","id":"line\nbreak"}}"#,
        #"{"session":"E\u001b[31mX","t":"2026-11-20T10:00:01Z","type":"mark","label":"\u001b]0;pwned\u0007"}"#,
    ].joined(separator: "\n") + "\n"

    /// Whether `text` holds a control character other than the line breaks that end its lines.
    static func hasRawControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 != "\n" && ($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }
    }

    @Test(arguments: ["state", "replay", "blame", "diff", "bisect"])
    func valuesAreEscapedInEveryReadableOutput(_ command: String) throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("hostile.ndjson", Self.hostile)
        let other = try dir.file("other.ndjson", #"{"session":"E\u001b[31mX","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"# + "\n")
        let args = command == "diff" || command == "bisect" ? [command, input, other] : [command, input]
        let r = run(navlogBinary(), args)
        #expect(r.status == 0 || r.status == 1, "\(args): \(r.stderr)")
        #expect(!Self.hasRawControl(r.stdout), "\(args) printed a raw control character: \(r.stdout.debugDescription)")
        #expect(!Self.hasRawControl(r.stderr))
        // The values are there, escaped, each on the line it belongs to.
        let expected: [String] = switch command {
        case "state", "blame": [#"E\u001b[31mX"#, #"ma\nin"#, #"Evil\u001b[2J/line\nbreak"#]
        case "replay": [#"pushed Evil\u001b[2J/line\nbreak on ma\nin"#, #"mark \u001b]0;pwned\u0007"#]
        default: [#"ma\nin"#]
        }
        for text in expected { #expect(r.stdout.contains(text), "\(args): no \(text) in \(r.stdout)") }
    }

    @Test func errorsEscapeTheValuesTheyQuote() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("two.ndjson", Self.hostile + #"{"session":"B\u0007","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"# + "\n")
        let r = navlog("state", input)
        #expect(r.status == 2)
        #expect(r.stderr.contains("holds 2 sessions"))
        #expect(!Self.hasRawControl(r.stderr), "\(r.stderr.debugDescription)")
    }

    @Test func anEmptyStackIdIsShownAsTwoQuotes() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("empty-stack.ndjson",
            #"{"session":"s","t":"2026-11-20T10:00:00Z","type":"stack.push","stack":"","value":{"type":"T"}}"# + "\n")
        for command in ["state", "blame"] {
            let r = navlog(command, input)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains(#"stack """#), "\(command): \(r.stdout)")
        }
    }

    @Test func valuesThatDifferInTheirDataAloneShowTheirData() throws {
        let dir = try TemporaryDirectory()
        func push(_ data: String) -> String {
            #"{"session":"K","t":"2026-11-20T10:00:00Z","type":"stack.push","stack":"main","value":{"type":"Results","data":"# + data + "}}\n"
        }
        let a = try dir.file("a.ndjson", push(#"{"q":"apple"}"#))
        let b = try dir.file("b.ndjson", push(#"{"q":"pear"}"#))
        let diff = navlog("diff", a, b)
        #expect(diff.status == 1)
        #expect(diff.stdout.contains(#"-Results {"q":"apple"}  +Results {"q":"pear"}"#), "\(diff.stdout)")
        let bisect = navlog("bisect", a, b)
        #expect(bisect.status == 1)
        #expect(bisect.stdout.contains(#"+Results {"q":"pear"}"#), "\(bisect.stdout)")
        // Values of other names keep the short form.
        let c = try dir.file("c.ndjson", #"{"session":"K","t":"2026-11-20T10:00:00Z","type":"stack.push","stack":"main","value":{"type":"Other"}}"# + "\n")
        let short = navlog("diff", a, c)
        #expect(short.stdout.contains("-Results  +Other"), "\(short.stdout)")
    }
}
