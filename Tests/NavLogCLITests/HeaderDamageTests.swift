import Foundation
import NavLogCore
import NavLogRecorder
import NavLogStore
import Testing
import NavLogTestSupport

/// One byte of a log's preamble (its zero-byte LZ4 frame and header record)
/// flipped: `verify`, `info`, `state` and `repair` all call the file damaged
/// (exit 1) and say that its header is, whoever wrote the log and whether it
/// was closed or left open; `repair` leaves such a file as it is.
@Suite struct HeaderDamageTests {
    /// Five events of one session.
    static let events = navlog("generate", "--sessions", "1", "--events-per-session", "5-5", "--seed", "9").stdout

    /// Logs as each writer leaves them: closed by `append`; left open (no
    /// footer) by `append` cut where its footer starts, by a ``LogWriter``
    /// and by a ``NavigationRecorder``, each flushed and copied before it is
    /// closed. (`ingest` writes a segment store, not logs.)
    static func logs(in dir: TemporaryDirectory) throws -> [(name: String, bytes: Data)] {
        let appended = dir.file("appended.navlog")
        #expect(navlog("append", appended, stdin: events).status == 0)
        let closedByAppend = try #require(FileManager.default.contents(atPath: appended))

        let writer = try LogWriter(path: dir.file("writer.navlog"))
        var parser = EventLineParser()
        for line in events.split(separator: "\n") { _ = try writer.append(try parser.parse(Array(line.utf8))) }
        try writer.flush()
        let openByWriter = try #require(FileManager.default.contents(atPath: dir.file("writer.navlog")))
        try writer.close()

        let recorder = try NavigationRecorder(path: dir.file("recorder.navlog"), session: "r-1")
        for i in 0..<5 { recorder.record(.mark(label: "m-\(i)")) }
        try recorder.flush()
        let openByRecorder = try #require(FileManager.default.contents(atPath: dir.file("recorder.navlog")))
        try recorder.close()

        return [("closed by append", closedByAppend), ("append left open", try withoutFooter(closedByAppend)),
                ("LogWriter left open", openByWriter), ("recorder left open", openByRecorder)]
    }

    /// A closed log cut where its footer starts, as a writer that never closed it leaves it.
    static func withoutFooter(_ closed: Data) throws -> Data {
        let bytes = [UInt8](closed)
        let footer = (0..<8).reduce(0) { $0 | Int(bytes[bytes.count - 12 + $1]) << (8 * $1) }   // the trailer's footer offset
        try #require(footer > NavLogFormat.preambleBytes && footer < bytes.count)
        return Data(bytes[..<footer])
    }

    @Test func everyCommandSaysTheHeaderIsDamaged() throws {
        let dir = try TemporaryDirectory()
        let logs = try Self.logs(in: dir)
        for (name, bytes) in logs {
            let path = dir.file("intact.navlog")
            try bytes.write(to: URL(fileURLWithPath: path))
            let info = navlog("info", path)
            #expect(info.status == 0, "\(name) does not open to start with: \(info.stderr)")
        }
        // Every byte of the preamble, each on one of the logs in turn (a
        // process per command and byte keeps this to a few seconds).
        let stride = exhaustiveStride(sampled: 5)
        var checked = 0
        for offset in Swift.stride(from: 0, to: NavLogFormat.preambleBytes, by: stride) {
            let (name, intact) = logs[offset % logs.count]
            var damaged = [UInt8](intact)
            damaged[offset] ^= 0x20
            let commands = ["verify", "info", "state", "repair"]
            let paths = commands.map { dir.file("damaged-\(offset)-\($0).navlog") }
            for path in paths { try Data(damaged).write(to: URL(fileURLWithPath: path)) }
            let results = Results(count: commands.count)
            DispatchQueue.concurrentPerform(iterations: commands.count) { results.set($0, navlog(commands[$0], paths[$0])) }
            for (index, command) in commands.enumerated() {
                let r = results.get(index), path = paths[index]
                let said = command == "verify" ? r.stdout : r.stderr
                #expect(r.status == 1, "\(command), byte \(offset) of a log \(name): exit \(r.status): \(r.stdout)\(r.stderr)")
                #expect(said.contains("header is damaged"), "\(command), byte \(offset) of a log \(name): \(r.stdout)\(r.stderr)")
                #expect(!said.contains("not a navlog"), "\(command), byte \(offset) of a log \(name): \(said)")
                if command == "repair" {
                    #expect(FileManager.default.contents(atPath: path) == Data(damaged), "repair changed byte \(offset) of a log \(name)")
                }
                checked += 1
            }
        }
        #expect(checked == 4 * ((NavLogFormat.preambleBytes + stride - 1) / stride))
        // A file that only shares the LZ4 magic is still not a navlog.
        let plain = try dir.file("plain.navlog", "")
        try Data([0x04, 0x22, 0x4D, 0x18, 0x64, 0x40, 0xA7] + [UInt8](repeating: 0x41, count: 60)).write(to: URL(fileURLWithPath: plain))
        let info = navlog("info", plain)
        #expect(info.status == 1 && info.stderr.contains("not a navlog file"), "\(info.stderr)")
    }
}

/// The outcomes of commands run at once, each set from its own thread.
private final class Results: Sendable {
    private let outcomes: Locked<[(status: Int32, stdout: String, stderr: String)]>
    init(count: Int) { outcomes = Locked(Array(repeating: (0, "", ""), count: count)) }
    func set(_ index: Int, _ outcome: (status: Int32, stdout: String, stderr: String)) { outcomes.withLock { $0[index] = outcome } }
    func get(_ index: Int) -> (status: Int32, stdout: String, stderr: String) { outcomes.withLock { $0[index] } }
}

/// The step of an exhaustive loop: every case normally, every `sampled`-th
/// under a sanitizer (`NAVLOG_TEST_SANITIZER`, set by `tools/test`).
private func exhaustiveStride(sampled: Int) -> Int {
    ProcessInfo.processInfo.environment["NAVLOG_TEST_SANITIZER"].map { $0.isEmpty ? 1 : sampled } ?? 1
}
