import Foundation
import NavLogCore
import Testing

/// `navlog generate`, run as the real binary.
@Suite("GenerateCommand")
struct GenerateCommandTests {
    struct Run {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    /// The directory holding the built products (the `navlog` binary).
    static var productsDirectory: URL {
        #if os(macOS)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
        #else
        return Bundle.main.bundleURL
        #endif
    }

    static func navlog(_ arguments: [String]) throws -> Run {
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("navlog")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: Array(stdout), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func expected(_ options: SampleGenerator.Options) -> [UInt8] {
        var writer = CanonicalWriter()
        for event in SampleGenerator(options).events() {
            writer.write(event)
            writer.bytes.append(0x0A)
        }
        return writer.bytes
    }

    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("navlog-generate-\(ProcessInfo.processInfo.processIdentifier)-\(name)").path
    }

    @Test func writesTheLibrarysCanonicalNDJSONToStandardOutput() throws {
        let run = try Self.navlog(["generate", "--sessions", "25", "--seed", "9"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        #expect(run.stdout == Self.expected(.init(sessions: 25, seed: 9)))
        #expect(run.stdout.last == 0x0A)
    }

    @Test func optionsReachTheGenerator() throws {
        let path = Self.temporaryPath("options.ndjson")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try Self.navlog([
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
        let written = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(written == Self.expected(options))
    }

    @Test func aMeanEventCountGivesLengthsAroundIt() throws {
        let run = try Self.navlog(["generate", "--sessions", "30", "--events-per-session", "40"])
        #expect(run.status == 0)
        #expect(run.stdout == Self.expected(.init(sessions: 30, eventsPerSession: 20...60)))
    }

    @Test("usage errors exit 2 with one line", arguments: [
        ["--sessions=-1"], ["--events-per-session", "0"], ["--events-per-session", "9-3"],
        ["--events-per-session", "many"], ["--start", "yesterday"], ["--app-versions", ","],
        ["--live-sessions", "0"],
    ])
    func usageErrors(arguments: [String]) throws {
        let run = try Self.navlog(["generate"] + arguments)
        #expect(run.status == 2)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("navlog generate: "))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func anUnwritableOutputExits2NamingTheFile() throws {
        let path = "/nonexistent-navlog-dir/out.ndjson"
        let run = try Self.navlog(["generate", "--sessions", "2", "--output", path])
        #expect(run.status == 2)
        #expect(run.stderr.contains(path))
        #expect(run.stderr.filter { $0 == "\n" }.count == 1)
    }
}
