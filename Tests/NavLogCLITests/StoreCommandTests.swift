import Foundation
import NavLogStore
import Testing
import NavLogTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// End-to-end tests of the store commands: `append`, `cat`, `info`,
/// `verify`, `repair`, run as the real binary.
@Suite struct StoreCommandTests {
    /// Canonical NDJSON of one generated session.
    static func session(events: Int, seed: Int = 3) -> String {
        let r = navlog("generate", "--sessions", "1", "--seed", "\(seed)", "--events-per-session", "\(events)-\(events)")
        precondition(r.status == 0, r.stderr)
        return r.stdout
    }

    @Test func lz4ToolAndCatPrintTheSameBytes() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        // 8,000 events: blocks of 256 KiB and a checkpoint every 4,096 events, several of each.
        let more = Self.session(events: 8_000)
        let input = more.split(separator: "\n").prefix(4_000).joined(separator: "\n") + "\n"
        let appended = navlog("append", log, stdin: input)
        #expect(appended.status == 0, "\(appended.stderr)")
        let cat = run(navlogBinary(), ["cat", log])
        let lz4 = run(lz4Tool, ["-dc", log])
        #expect(cat.status == 0 && lz4.status == 0, "\(cat.stderr) \(lz4.stderr)")
        #expect(cat.stdout == lz4.stdout)
        #expect(cat.stdout == input)
        // Appending more keeps it true.
        let rest = more.split(separator: "\n").dropFirst(4_000).joined(separator: "\n") + "\n"
        #expect(navlog("append", log, stdin: rest).status == 0)
        #expect(run(navlogBinary(), ["cat", log]).stdout == more)
        #expect(run(lz4Tool, ["-dc", log]).stdout == more)
        let info = navlog("info", log)
        #expect(info.status == 0)
        #expect(info.stdout.contains("events:        8000"))
        let verified = navlog("verify", log)
        #expect(verified.status == 0)
        #expect(verified.stdout.hasPrefix("\(log): ok, 8000 events, "))
    }

    @Test func appendRejectsBadLinesWithTheirNumbersAndKeepsTheRest() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let input = """
            {"session":"s-1","t":"2026-11-20T10:00:00Z","type":"mark","label":"a"}
            {"session":"s-1","t":"not a time","type":"mark","label":"b"}
            {"session":"s-2","t":"2026-11-20T10:00:01Z","type":"mark","label":"c"}

            {"session":"s-1","t":"2026-11-20T10:00:02Z","type":"mark","label":"d"}
            """
        let r = navlog("append", log, stdin: input)
        #expect(r.status == 1)
        #expect(r.stderr.contains("<stdin>:2:"))
        #expect(r.stderr.contains("<stdin>:3:"))
        let cat = navlog("cat", log)
        #expect(cat.stdout == """
            {"label":"a","seq":1,"session":"s-1","t":"2026-11-20T10:00:00.000Z","type":"mark"}
            {"label":"d","seq":2,"session":"s-1","t":"2026-11-20T10:00:02.000Z","type":"mark"}

            """)
    }

    /// `append` reports rejected lines as ingest and import do: the first 20,
    /// every one counted, the closing line saying how many were not shown.
    @Test func appendShowsTheFirstTwentyRejectedLines() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        var lines = (1...25).map { _ in #"{"session":"s-1","t":"not a time","type":"mark"}"# }
        lines.append(#"{"session":"s-1","t":"2026-11-20T10:00:00Z","type":"mark","label":"kept"}"#)
        let r = navlog("append", log, stdin: lines.joined(separator: "\n") + "\n")
        #expect(r.status == 1)
        let shown = r.stderr.split(separator: "\n").filter { $0.contains("<stdin>:") }
        #expect(shown.count == 20)
        #expect(shown.last?.contains("<stdin>:20: ") == true)
        #expect(r.stderr.contains("\(log): 25 lines rejected (5 not shown); the others were appended"), "\(r.stderr)")
        #expect(navlog("cat", log).stdout.contains(#""label":"kept""#))
    }

    /// SIGKILL a writer at random moments, many times: every event it
    /// acknowledged (printed after it was durable) is in the log, the log
    /// always holds a prefix of the input, and the next writer carries on.
    @Test func sigkilledWritersLoseNothingAcknowledged() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let all = Self.session(events: 6000, seed: 11).split(separator: "\n").map(String.init)
        var stored = 0
        var rng = SystemRandomNumberGenerator()
        var kills = 0
        var round = 0
        while stored < all.count && round < 40 {
            round += 1
            let durability = ["every-append", "every-seal", "5"].randomElement(using: &rng)!
            let acked = try Self.appendAndKill(log: log, lines: Array(all[stored...]), durability: durability,
                                               afterMicroseconds: UInt32.random(in: 1_000...60_000, using: &rng))
            kills += acked.killed ? 1 : 0
            var lines: [String] = []
            if FileManager.default.fileExists(atPath: log) {   // killed before it created the file: nothing stored
                let cat = run(navlogBinary(), ["cat", log])
                #expect(cat.status == 0, "round \(round): \(cat.stderr)")
                lines = cat.stdout.split(separator: "\n").map(String.init)
            }
            #expect(Array(all.prefix(lines.count)) == lines, "round \(round): not a prefix")
            #expect(lines.count >= acked.lastSeq, "round \(round): acknowledged seq \(acked.lastSeq) lost (\(lines.count) stored)")
            if lines.count < acked.lastSeq || Array(all.prefix(lines.count)) != lines { return }
            stored = lines.count
        }
        #expect(kills >= 10, "only \(kills) writers were killed mid-run")
        // Let the last writer finish the input; the log ends intact.
        if stored < all.count {
            let rest = all[stored...].joined(separator: "\n") + "\n"
            #expect(navlog("append", log, stdin: rest).status == 0)
        }
        #expect(navlog("cat", log).stdout == all.joined(separator: "\n") + "\n")
        #expect(navlog("verify", log).status == 0)
    }

    /// Runs `navlog append LOG --ack`, feeding `lines`, and SIGKILLs it after
    /// the delay (unless it finished). Returns the last seq it acknowledged.
    static func appendAndKill(log: String, lines: [String], durability: String, afterMicroseconds delay: UInt32) throws -> (lastSeq: Int, killed: Bool) {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: navlogBinary())
        process.arguments = ["append", log, "--ack", "--durability", durability]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let feed = Data((lines.joined(separator: "\n") + "\n").utf8)
        let writer = input.fileHandleForWriting
        let feeder = Thread {
            // Trickle the input so the kill lands mid-stream.
            var offset = 0
            while offset < feed.count {
                let end = min(offset + 2048, feed.count)
                do { try writer.write(contentsOf: feed[offset..<end]) } catch { break }
                offset = end
                usleep(1000)
            }
            try? writer.close()
        }
        feeder.start()
        let acks = AckCollector(output.fileHandleForReading)
        usleep(delay)
        let killed = process.isRunning
        if killed { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        return (acks.lastSeq(), killed)
    }

    /// A log that holds no events (an append of nothing) has no session:
    /// the commands that show a state refuse it as they refuse an empty
    /// NDJSON input, instead of printing a state of session "".
    @Test func aLogWithoutEventsHasNoStateToShow() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("empty.navlog")
        #expect(navlog("append", log, stdin: "").status == 0)
        #expect(navlog("verify", log).status == 0)
        for args in [["state", log, "--json"], ["blame", log], ["diff", log, log], ["bisect", log, log],
                     ["bisect", log, "--until", "*"], ["replay", log]] {
            let r = run(navlogBinary(), args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr == "navlog: \(log): no events\n", "\(args): \(r.stderr)")
            #expect(r.stdout == "", "\(args)")
        }
    }

    /// A file that cannot be read is trouble (exit 2), not a damaged log
    /// (exit 1); the other logs are still checked.
    @Test func verifyOfAMissingFileOrADirectoryIsTrouble() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("a.navlog")
        #expect(navlog("append", log, stdin: #"{"session":"a","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"# + "\n").status == 0)
        let missing = navlog("verify", log, dir.file("missing.navlog"))
        #expect(missing.status == 2)
        #expect(missing.stdout.contains("\(log): ok"))
        #expect(missing.stderr.contains("1 of 2 logs could not be read"), "\(missing.stderr)")
        #expect(navlog("verify", dir.file(".")).status == 2)
        // Damage is still exit 1.
        let junk = try dir.file("junk.navlog", "not a log")
        #expect(navlog("verify", junk).status == 1)
    }
}

/// Reads `--ack` lines from a pipe on a background thread.
private final class AckCollector: Sendable {
    private let state = Locked((data: Data(), finished: false))

    init(_ handle: FileHandle) {
        let thread = Thread { [state] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                state.withLock { $0.data.append(chunk) }
            }
            state.withLock { $0.finished = true }
            state.broadcast()
        }
        thread.start()
    }

    /// The last complete ack line (0 when none), once the pipe is closed.
    func lastSeq() -> Int {
        let text = state.withLock(when: { $0.finished }) { String(decoding: $0.data, as: UTF8.self) }
        let complete = text.hasSuffix("\n") ? text : String(text[..<(text.lastIndex(of: "\n") ?? text.startIndex)])
        return complete.split(separator: "\n").last.flatMap { Int($0) } ?? 0
    }
}
