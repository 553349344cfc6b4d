import Foundation
import Testing
import NavLogTestSupport

/// Writes that fail part-way through the real binary: a file-size limit
/// (`ulimit -f`, EFBIG), a read-only file, a missing directory. Each gives
/// one clear error line and exit 2, and the log afterwards opens with every
/// acknowledged event in it.
@Suite struct FaultInjectionTests {
    static func sampleInput(events: Int) -> String {
        navlog("generate", "--sessions", "1", "--seed", "3", "--events-per-session", String(events)).stdout
    }

    static func lines(_ text: String) -> [Substring] { text.split(separator: "\n") }

    /// (Not under ThreadSanitizer: its runtime crashes at start with a file-size limit.)
    @Test(.enabled(if: ProcessInfo.processInfo.environment["NAVLOG_TEST_SANITIZER"] != "thread"))
    func fileSizeLimitHalfWayThroughAnAppend() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let input = Self.sampleInput(events: 3000)
        // SIGXFSZ ignored, so the write past the limit fails with EFBIG.
        let limited = run("/bin/sh", [
            "-c", "trap '' XFSZ; ulimit -f 16; exec \"$0\" append --durability every-append --ack \"$1\"",
            navlogBinary(), log,
        ], stdin: Data(input.utf8))
        #expect(limited.status == 2)
        let errors = Self.lines(limited.stderr)
        #expect(errors.count == 1 && limited.stderr.contains("File too large"), "\(limited.stderr)")
        let acked = Self.lines(limited.stdout).compactMap { Int($0) }
        #expect(acked.count > 10 && acked == Array(1...acked.count), "acked \(acked.count)")
        #expect((try FileManager.default.attributesOfItem(atPath: log)[.size] as? NSNumber)?.intValue ?? 0 <= 16 * 512)
        // Every acknowledged event is there, as a prefix of the input.
        let kept = navlog("cat", log)
        let inputLines = Self.lines(input)
        let keptLines = Self.lines(kept.stdout)
        #expect(keptLines.count >= acked.count)
        #expect(Array(inputLines.prefix(keptLines.count)) == keptLines)
        // Without the limit, a writer recovers the tail and the log continues to the end.
        let rest = inputLines.dropFirst(keptLines.count).joined(separator: "\n") + "\n"
        let resumed = navlog("append", log, stdin: rest)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(navlog("cat", log).stdout == input)
    }

    @Test func readOnlyLogIsAnErrorAndStaysIntact() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let input = Self.sampleInput(events: 50)
        #expect(navlog("append", log, stdin: input).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: log))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: log)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path)
        // root ignores permissions: run the append as nobody then.
        let result = getuid() == 0
            ? run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", navlogBinary(), "append", log],
                  stdin: Data(input.utf8))
            : navlog("append", log, stdin: input)
        #expect(result.status == 2)
        #expect(Self.lines(result.stderr).count == 1 && result.stderr.contains("Permission denied"), "\(result.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: log)) == before)
        #expect(navlog("cat", log).stdout == input)
    }

    @Test func missingDirectoryIsAnError() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("gone/s.navlog")
        let result = navlog("append", log, stdin: Self.sampleInput(events: 5))
        #expect(result.status == 2)
        #expect(Self.lines(result.stderr).count == 1 && result.stderr.contains("No such file or directory"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: log))
    }
}
