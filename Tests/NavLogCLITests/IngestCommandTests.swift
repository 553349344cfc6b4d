import Foundation
import NavLogCore
import NavLogSample
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog ingest` through the real binary: nothing is lost (every line
/// stored or rejected), appending continues seqs, hostile session ids stay
/// inside the store (a segment store: sessions are read back through the library).
@Suite("navlog ingest")
struct IngestCommandTests {
    /// Every session of a store: its canonical lines.
    static func storedLines(_ store: String) throws -> [String: [String]] {
        try SegmentStoreContents.lines(store)
    }

    @Test func everyLineIsStoredOrRejectedLineForLine() throws {
        let dir = try TemporaryDirectory()
        let generated = navlog("generate", "--sessions", "40", "--seed", "11", "--interleave").stdout
            .split(separator: "\n").map(String.init)
        #expect(generated.count > 1000)
        // Interleaved, as a collector writes them: the session changes from line to line.
        let firstSessions = try generated.prefix(300).map { try EventParser.parse($0).session }
        #expect(Set(firstSessions).count > 5)
        #expect(zip(firstSessions, firstSessions.dropFirst()).filter { $0 != $1 }.count > 50)
        // Malformed lines injected at seeded positions (bytes, so non-UTF-8 fits too).
        let bad: [[UInt8]] = [
            Array("{not json".utf8),
            Array(#"{"session":"s-000001","t":"2026-11-20T10:00:00Z"}"#.utf8),                        // no type
            Array(#"{"session":"","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"#.utf8),       // empty session
            Array(#"{"session":"s-000002","seq":1,"t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"#.utf8), // seq goes back
            Array(#"{"session":"s-000003","t":"yesterday","type":"mark","label":"x"}"#.utf8),
            Array(#"{"session":"s-000004","t":"2026-11-20T10:00:00Z","type":"stack.pop","stack":"a","count":0}"#.utf8),
            Array(#"{"session":"s-000005","t":"2026-11-20T10:00:00Z","type":"tab.select","tab":3}"#.utf8),
            Array(#"{"session":"s-\#u{FF}","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"#.utf8).map { $0 == 0xC3 ? 0xFF : $0 },
            Array("[1,2,3]".utf8),
            Array(#"{"session":"s-000006","t":"2026-11-20T10:00:00Z","type":"mark","label":"x","label":"y"}"#.utf8),
        ]
        var rng = SeededRandom(seed: 5)
        var input: [[UInt8]] = generated.map { Array($0.utf8) }
        var badPositions: [Int] = []   // 1-based line numbers in the final input
        for line in bad {
            let at = Int(rng.next() % UInt64(input.count))
            input.insert(line, at: at)
            badPositions = badPositions.map { $0 > at ? $0 + 1 : $0 }
            badPositions.append(at + 1)
        }
        input.insert([], at: 10)   // a blank line: neither stored nor rejected
        badPositions = badPositions.map { $0 > 10 ? $0 + 1 : $0 }
        let path = dir.file("in.ndjson")
        try Data(input.joined(separator: [0x0A]) + [0x0A]).write(to: URL(fileURLWithPath: path))

        let r = navlog("ingest", path, "--store", dir.file("store"), "--rejects", dir.file("rejected"))
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stdout.contains("stored \(generated.count) events of 40 sessions (40 new)"))
        // Each rejection names its line; they come in input order.
        let reported = r.stderr.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("navlog: \(path):") else { return nil }
            return Int(line.dropFirst("navlog: \(path):".count).prefix { $0.isNumber })
        }
        #expect(reported == badPositions.sorted())
        #expect(r.stderr.contains("10 lines rejected"))
        // Verbatim, in order.
        let kept = try Data(contentsOf: URL(fileURLWithPath: dir.file("rejected")))
        let expectedKept = badPositions.sorted().map { input[$0 - 1] }
        #expect([UInt8](kept) == Array(expectedKept.joined(separator: [0x0A])) + [0x0A])
        // Stored events are the valid input events, per session, in order.
        var expected: [String: [String]] = [:]
        for line in generated { expected[try EventParser.parse(line).session, default: []].append(line) }
        #expect(try Self.storedLines(dir.file("store")) == expected)
    }

    @Test func ingestingInTwoRunsAppendsWithExplicitSeqs() throws {
        let dir = try TemporaryDirectory()
        let lines = navlog("generate", "--sessions", "12", "--seed", "4", "--interleave").stdout.split(separator: "\n").map(String.init)
        let half = lines.count / 2
        // The second half from another input: each session goes on with the seqs its lines give.
        let first = try dir.file("a.ndjson", lines[..<half].joined(separator: "\n") + "\n")
        let second = try dir.file("b.ndjson", lines[half...].joined(separator: "\n") + "\n")
        #expect(navlog("ingest", first, "--store", dir.file("store")).status == 0)
        let r = navlog("ingest", "-", "--store", dir.file("store"), "--max-open", "2", stdin: try String(contentsOfFile: second, encoding: .utf8))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr == "")   // not a terminal: no progress bar
        var expected: [String: [String]] = [:]
        for line in lines { expected[try EventParser.parse(line).session, default: []].append(line) }
        let stored = try Self.storedLines(dir.file("store"))
        #expect(stored == expected)
        #expect(try SegmentStoreContents.problems(dir.file("store")) == [])
    }

    @Test func hostileSessionIdsStayInsideTheStore() throws {
        let dir = try TemporaryDirectory()
        let ids = ["../x", "/etc/passwd", "a/b", "A", "a", ".", "..", String(repeating: "z", count: 300),
                   "ctl\u{1}\u{7F}\ttab", "-rf", "Ünïcode", "e\u{301}", "\u{E9}"]
        var lines: [[UInt8]] = []
        for (i, id) in ids.enumerated() {
            for k in 0..<2 {
                let event = Event(session: id, t: Timestamp(milliseconds: 1_795_168_800_000 + Int64(i * 10 + k)),
                                  kind: .stackPush(stack: "main", value: RouteValue(type: "V", id: "\(i)-\(k)")))
                var writer = CanonicalWriter()
                writer.write(event)
                lines.append(writer.bytes)
            }
        }
        lines.append(Array(#"{"session":"bad\#u{FF}","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"#.utf8).map { $0 == 0xC3 ? 0xFE : $0 })
        lines.append(Array(#"{"session":"","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}"#.utf8))
        let input = dir.file("in.ndjson")
        try Data(lines.joined(separator: [0x0A])).write(to: URL(fileURLWithPath: input))
        let store = dir.file("deep/store")
        try FileManager.default.createDirectory(atPath: dir.file("deep"), withIntermediateDirectories: true)
        let r = navlog("ingest", input, "--store", store)
        #expect(r.status == 1)
        #expect(r.stderr.contains("in.ndjson:\(lines.count - 1): "))
        #expect(r.stderr.contains("in.ndjson:\(lines.count): "))
        #expect(r.stdout.contains("stored \(ids.count * 2) events of \(ids.count) sessions"))
        // Nothing outside the store.
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.file("deep")) == ["store"])
        #expect(!FileManager.default.fileExists(atPath: dir.file("x")))
        // Ids name no file: the store's files are its own.
        let names = try FileManager.default.contentsOfDirectory(atPath: store)
        #expect(Set(names) == ["navlog-store", "LOCK", "COMMITTED", "00000001.nls", "00000001.views"], "\(names)")
        // Each session holds its id exactly (by bytes: "e\u{301}" and "\u{E9}" are equal Strings).
        let held = try SegmentStoreContents.linesBySessionBytes(store)
        #expect(Set(held.keys) == Set(ids.map { Array($0.utf8) }))
        for (id, lines) in held {
            #expect(lines.count == 2, "\(String(decoding: id, as: UTF8.self))")
            #expect(try lines.allSatisfy { Array(try EventParser.parse($0).session.utf8) == id })
        }
    }

    @Test func aTerminalGetsAProgressBarThatIsClearedAtTheEnd() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("in.ndjson", navlog("generate", "--sessions", "400", "--seed", "2").stdout)
        let terminal = try PseudoTerminal(navlogBinary(), ["ingest", input, "--store", dir.file("store")])
        #expect(try terminal.waitForExit(timeout: 60) == .exited(0))
        let raw = terminal.rawOutput
        #expect(raw.contains("] 100% 16384 lines, 0 rejected") || raw.contains("% 16384 lines, 0 rejected"), "\(raw.prefix(400))")
        #expect(raw.contains("\r\u{1B}[K"))   // the bar is erased before the summary
        #expect(raw.hasSuffix("rejected\r\n") || raw.hasSuffix("rejected\n"))
    }

    /// `--rejects` naming an input would empty it before a line is read;
    /// naming a file in the store could take a log's place. Both refused.
    @Test func rejectsMustNotBeAnInputOrInTheStore() throws {
        let dir = try TemporaryDirectory()
        let text = navlog("generate", "--sessions", "3", "--seed", "2").stdout
        let input = try dir.file("in.ndjson", text)
        let same = navlog("ingest", input, "--store", dir.file("store"), "--rejects", input)
        #expect(same.status == 2)
        #expect(same.stderr.contains("is the input"), "\(same.stderr)")
        #expect(try String(contentsOfFile: input, encoding: .utf8) == text)
        // Through another name for the same file.
        try FileManager.default.linkItem(atPath: input, toPath: dir.file("link.ndjson"))
        #expect(navlog("ingest", input, "--store", dir.file("store"), "--rejects", dir.file("link.ndjson")).status == 2)
        #expect(try String(contentsOfFile: input, encoding: .utf8) == text)
        let inStore = navlog("ingest", input, "--store", dir.file("store"), "--rejects", dir.file("store/rejected.ndjson"))
        #expect(inStore.status == 2)
        #expect(inStore.stderr.contains("is in the store"), "\(inStore.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("store/rejected.ndjson")))
        // A file elsewhere is fine.
        #expect(navlog("ingest", input, "--store", dir.file("store"), "--rejects", dir.file("rejected.ndjson")).status == 0)
    }

    /// An ingest that fails part-way (here on an input that cannot be
    /// read, after one that was) says how much it stored before: those
    /// events stay stored (committed).
    @Test func aFailedIngestSaysWhatItStoredBefore() throws {
        let dir = try TemporaryDirectory()
        let y = try dir.file("y.ndjson", navlog("generate", "--sessions", "1", "--seed", "6", "--events-per-session", "500-500").stdout)
        try FileManager.default.createDirectory(atPath: dir.file("not-a-file"), withIntermediateDirectories: false)
        let r = navlog("ingest", y, dir.file("not-a-file"), "--store", dir.file("store"))
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("navlog: \(dir.file("not-a-file")): "), "\(r.stderr)")
        #expect(r.stdout == "stored 500 events in \(dir.file("store")) before the failure; 0 lines rejected\n", "\(r.stdout)")
        #expect(try Self.storedLines(dir.file("store")).values.map(\.count) == [500])
    }

    /// "S sessions (K new)" counts the sessions that got events: one whose
    /// every line was refused is not among them.
    @Test func theSummaryCountsSessionsThatGotEvents() throws {
        let dir = try TemporaryDirectory()
        func mark(_ session: String, seq: Int) -> String {
            #"{"seq":\#(seq),"session":"\#(session)","t":"2026-11-20T10:00:00Z","type":"mark","label":"m"}"# + "\n"
        }
        let first = try dir.file("first.ndjson", mark("old", seq: 5))
        #expect(navlog("ingest", first, "--store", dir.file("store")).stdout.hasPrefix("stored 1 event of 1 session (1 new)"))
        // "old" comes back with a seq that does not increase; "new" is new.
        let second = try dir.file("second.ndjson", mark("old", seq: 3) + mark("new", seq: 1) + mark("new", seq: 2))
        let r = navlog("ingest", second, "--store", dir.file("store"))
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("stored 2 events of 1 session (1 new) in "), "\(r.stdout)")
        let third = try dir.file("third.ndjson", mark("old", seq: 6))
        #expect(navlog("ingest", third, "--store", dir.file("store")).stdout.hasPrefix("stored 1 event of 1 session (0 new)"))
    }

    /// A line over the length limit is read past, not kept: the summary says so.
    @Test func theSummarySaysWhichRejectedLinesWereNotKept() throws {
        let dir = try TemporaryDirectory()
        let huge = #"{"session":"s","t":"2026-11-20T10:00:00Z","type":"mark","label":""# + String(repeating: "x", count: 1 << 21) + "\"}\n"
        let bad = "{not json\n"
        let input = try dir.file("in.ndjson", huge + bad)
        let r = navlog("ingest", input, "--store", dir.file("store"), "--rejects", dir.file("rejected.ndjson"))
        #expect(r.status == 1)
        #expect(r.stderr.contains("2 lines rejected; kept in \(dir.file("rejected.ndjson")) (but 1 over the line length limit, not copied)"), "\(r.stderr)")
        #expect(try String(contentsOfFile: dir.file("rejected.ndjson"), encoding: .utf8) == bad)
    }

    /// Runs `navlog ingest - --store STORE` (and `extra` arguments) on
    /// `lines`, handed on in chunks of 256 lines: the first 2,000, then Ctrl-C
    /// while the ingest waits for more (it stops at the next chunk's end,
    /// reading no further), then the rest.
    /// Whether it exited (rather than died of the signal), its status and output.
    static func interruptedIngest(_ lines: [String], store: String, extra: [String] = []) throws
        -> (exited: Bool, status: Int32, stdout: String, stderr: String) {
        try PipedNavlog.interrupted(["ingest", "-", "--store", store, "--chunk-lines", "256"] + extra, store: store,
                                    first: Data(lines[..<2_000].joined().utf8), rest: Data(lines[2_000...].joined().utf8))
    }

    /// Ctrl-C stops an ingest between chunks: what was read is stored (or
    /// rejected), the store is closed and verifies clean, the summary names the
    /// last line read, and ingesting the rest gives the sessions one run gives.
    @Test func anInterruptedIngestStopsCleanlyAndCanBeResumed() throws {
        let dir = try TemporaryDirectory()
        let lines = navlog("generate", "--sessions", "150", "--seed", "9", "--interleave").stdout
            .split(separator: "\n").map { String($0) + "\n" }
        #expect(lines.count > 6_000)
        let (exited, status, stdout, stderr) = try Self.interruptedIngest(lines, store: dir.file("store"))
        #expect(exited && status == 130, "\(stderr)")
        let match = try #require(stderr.firstMatch(of: /stopped: read up to <stdin>:(\d+); nothing after it was read/), "\(stderr)")
        let readLines = try #require(Int(match.1))
        #expect(readLines >= 2_000 && readLines < lines.count, "\(readLines)")
        #expect(stdout.hasPrefix("stored \(readLines) events of "), "\(stdout)")
        #expect(try SegmentStoreContents.problems(dir.file("store")) == [])
        // The rest, then one run over everything: the same logs, event for event.
        let rest = run(navlogBinary(), ["ingest", "-", "--store", dir.file("store")], stdin: Data(lines[readLines...].joined().utf8))
        #expect(rest.status == 0, "\(rest.stderr)")
        let whole = try dir.file("all.ndjson", lines.joined())
        #expect(navlog("ingest", whole, "--store", dir.file("whole")).status == 0)
        #expect(try Self.storedLines(dir.file("store")) == Self.storedLines(dir.file("whole")))
    }
}

