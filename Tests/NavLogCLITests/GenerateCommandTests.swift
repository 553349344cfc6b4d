import Foundation
import NavLogCore
import NavLogSample
import Testing
import NavLogTestSupport

/// `navlog generate`, run as the real binary.
@Suite("GenerateCommand")
struct GenerateCommandTests {
    static func navlog(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        run(navlogBinary(), arguments)
    }

    static func expected(_ options: SampleGenerator.Options) -> String {
        var writer = CanonicalWriter()
        for event in SampleGenerator(options).events() {
            writer.write(event)
            writer.bytes.append(0x0A)
        }
        return writer.string
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("navlog-generate-\(ProcessInfo.processInfo.processIdentifier)-\(name)").path
    }

    @Test func writesTheLibrarysCanonicalNDJSONToStandardOutput() {
        let run = Self.navlog(["generate", "--sessions", "25", "--seed", "9"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout == Self.expected(.init(sessions: 25, seed: 9)))
        #expect(run.stdout.hasSuffix("\n"))
    }

    @Test func optionsReachTheGenerator() throws {
        let path = Self.temporaryPath("options.ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = Self.navlog([
            "generate", "--sessions", "40", "--seed", "3", "--events-per-session", "10-20", "--interleave",
            "--live-sessions", "5", "--start", "2030-01-01T02:00:00+02:00", "--app-versions", "1.0, 2.0",
            "--output", path,
        ])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        let options = SampleGenerator.Options(
            sessions: 40, seed: 3, eventsPerSession: 10...20,
            start: Timestamp(rfc3339: "2030-01-01T00:00:00Z")!, appVersions: ["1.0", "2.0"],
            interleave: true, liveSessions: 5)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == Self.expected(options))
    }

    @Test func anExistingOutputIsReplacedWhole() throws {
        let path = Self.temporaryPath("replaced.ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try String(repeating: "an older, longer file\n", count: 10_000).write(toFile: path, atomically: false, encoding: .utf8)
        let run = Self.navlog(["generate", "--sessions", "3", "--seed", "4", "--output", path])
        #expect(run.status == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.expected(.init(sessions: 3, seed: 4)))
    }

    @Test func aMeanEventCountGivesLengthsAroundIt() {
        let run = Self.navlog(["generate", "--sessions", "30", "--events-per-session", "40"])
        #expect(run.status == 0)
        #expect(run.stdout == Self.expected(.init(sessions: 30, eventsPerSession: 20...60)))
    }

    @Test("usage errors exit 2 with one line", arguments: [
        ["--sessions=-1"], ["--events-per-session", "0"], ["--events-per-session", "9-3"],
        ["--events-per-session", "many"], ["--start", "yesterday"], ["--app-versions", ","],
        ["--live-sessions", "0"],
    ])
    func usageErrors(arguments: [String]) {
        let run = Self.navlog(["generate"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("navlog: generate: "))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func anUnwritableOutputExits2NamingTheFile() {
        let path = "/nonexistent-navlog-dir/out.ndjson"
        let run = Self.navlog(["generate", "--sessions", "2", "--output", path])
        #expect(run.status == 2)
        #expect(run.stderr.contains(path))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }
}
