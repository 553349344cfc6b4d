import Foundation
import Testing
import NavLogTestSupport

/// Inputs sized to exhaust memory, the stack or patience: each is bounded and
/// rejected with one clear line, or handled, through the real binary.
@Suite struct ResourceLimitTests {
    static let start = #"{"session":"s","seq":1,"t":"2026-11-20T10:00:00Z","type":"session.start"}"#
    static let canonicalStart = #"{"seq":1,"session":"s","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#

    /// A line over the 1 MiB limit is skipped while streaming (never held
    /// whole), reported with its line number, and the lines after it are kept.
    @Test func overLimitLineIsRejectedAndTheRestKept() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let huge = #"{"session":"s","t":"2026-11-20T10:00:00Z","type":"mark","label":""#
            + String(repeating: "x", count: 3 << 20) + #""}"#
        let result = navlog("append", log, stdin: huge + "\n" + Self.start + "\n")
        #expect(result.status == 1)
        let errors = result.stderr.split(separator: "\n")
        #expect(errors.first?.contains("<stdin>:1:") == true && errors.first?.contains("over the limit of 1048576") == true, "\(result.stderr)")
        #expect(navlog("cat", log).stdout == Self.canonicalStart + "\n")
    }

    /// `data` nested 100 000 deep is refused at the depth limit (no stack overflow).
    @Test func deeplyNestedValueIsRejected() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let depth = 100_000
        let deep = #"{"session":"s","seq":1,"t":"2026-11-20T10:00:00Z","type":"mark","label":"x","meta":{"a":"#
            + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}}"
        let result = navlog("append", log, stdin: deep + "\n" + Self.start + "\n")
        #expect(result.status == 1)
        #expect(result.stderr.contains("<stdin>:1: JSON nested deeper than 64 levels"), "\(result.stderr)")
        #expect(navlog("cat", log).stdout == Self.canonicalStart + "\n")
    }

    /// 100 000 scenes, and 100 000 stacks, in one session project.
    @Test(arguments: ["scene.open", "stack.push"])
    func hundredThousandScenesOrStacks(type: String) throws {
        let dir = try TemporaryDirectory()
        var text = Self.start + "\n"
        let count = 100_000
        text.reserveCapacity(count * 130)
        for i in 0..<count {
            let what = type == "scene.open"
                ? #""scene":"w\#(i)""#
                : #""stack":"k\#(i)","value":{"type":"R","id":"x"}"#
            text += #"{"session":"s","seq":\#(i + 2),"t":"2026-11-20T10:00:01Z","type":"\#(type)",\#(what)}"# + "\n"
        }
        let input = try dir.file("in.ndjson", text)
        let result = navlog("state", "--json", input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(type == "scene.open" ? #""w99999":"# : #""k99999":"#))
        #expect(result.stdout.contains(#""seq":100001"#))
    }
}
