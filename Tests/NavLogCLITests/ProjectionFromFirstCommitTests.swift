import Foundation
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every writer of a new store keeps its screen projection from the first
/// commit (schemas/screen-projection.md §6): a store written by `ingest` or
/// `import` alone has a projection covering every commit, byte for byte what
/// `reindex` builds, whose answers are the events'; an interrupted ingest
/// leaves it complete or behind, never wrong; a store with commits and no
/// projection is left without one and the writer says how to build it.
@Suite struct ProjectionFromFirstCommitTests {
    /// Whether `store`'s projection files are what `reindex` builds (it writes none), for `segments` segments.
    static func isComplete(_ store: String) throws -> Bool {
        let segments = try FileManager.default.contentsOfDirectory(atPath: store).filter { $0.hasSuffix(".nls") }.count
        let r = navlog("reindex", store)
        return r.status == 0 && r.stdout.contains(": 0 projection files written, \(segments) kept;")
    }

    /// The questions' answers over `store` equal those over a copy of it without its projection (the events read).
    static func answersAreTheEvents(_ store: String, in dir: TemporaryDirectory, _ questions: [[String]] = ScreenProjectionTests.questions) throws {
        let events = dir.file("events-\(UUID().uuidString)")
        try FileManager.default.copyItem(atPath: store, toPath: events)
        for name in try ScreenProjectionTests.projectionFiles(events) { try FileManager.default.removeItem(atPath: events + "/" + name) }
        #expect(ScreenProjectionTests.answers(store, questions) == ScreenProjectionTests.answers(events, questions))
    }

    @Test("ingest alone writes a complete projection: reindex keeps every file, verify passes, the answers are the events'")
    func ingestAlone() throws {
        let dir = try TemporaryDirectory()
        let input = dir.file("in.ndjson")
        #expect(navlog("generate", "--sessions", "80", "--seed", "5", "--events-per-session", "4-30", "--interleave",
                       "--app-versions", "1.0,2.0", "-o", input).status == 0)
        let store = dir.file("store")
        // A commit after every chunk of 256 lines: several commits, each with its block.
        let r = navlog("ingest", input, "--store", store, "--commit-interval", "0", "--chunk-lines", "256", "--json")
        #expect(r.status == 0 && r.stdout.contains("\"projectionBehind\":null") && r.stderr.isEmpty, "\(r.stdout) \(r.stderr)")
        #expect(try !ScreenProjectionTests.projectionFiles(store).isEmpty)
        #expect(navlog("verify", store).status == 0)
        try Self.answersAreTheEvents(store, in: dir)
        #expect(try Self.isComplete(store))
    }

    @Test("import into a new store writes its projection, and a second import keeps it")
    func importAlone() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let first = navlog("import", "ga4", ImportCommandTests.fixture("ga4.ndjson"), "--store", store)
        #expect(first.status == 0 && first.stderr.isEmpty, "\(first.stderr)")
        #expect(try ScreenProjectionTests.projectionFiles(store) == ["00000001.views"])
        let second = navlog("import", "react-navigation", ImportCommandTests.fixture("react-navigation.ndjson"), "--store", store)
        #expect(second.status == 0 && second.stderr.isEmpty, "\(second.stderr)")
        #expect(navlog("verify", store).status == 0)
        let questions = [["funnel", "STORE", "--step", "*", "--step", "*", "--format", "csv"], ["export", "screens", "STORE", "--with-marks"]]
        try Self.answersAreTheEvents(store, in: dir, questions)
        #expect(ScreenProjectionTests.answers(store, [questions[1]])[0].split(separator: "\n").count > 3)
        #expect(try Self.isComplete(store))
    }

    @Test("A store whose every session.start differs (a user id in app): readers keep the templates as bytes, the answers are the events'")
    func everySessionStartDiffers() throws {
        let dir = try TemporaryDirectory()
        let generated = navlog("generate", "--sessions", "9000", "--seed", "12", "--events-per-session", "2-3", "--interleave",
                               "--app-versions", "1.0,2.0").stdout
        // More distinct templates than a reader keeps parsed (8,192), so that it reads them from the blocks' bytes.
        var starts = 0
        let lines = generated.split(separator: "\n").map { line -> String in
            guard line.contains(#""type":"session.start""#), line.hasPrefix(#"{"app":{"#),
                  let at = line.range(of: #""session":""#) else { return String(line) }
            starts += 1
            let id = line[at.upperBound...].prefix { $0 != "\"" }
            return #"{"app":{"user":"u-"# + id + #"","# + line.dropFirst(#"{"app":{"#.count)
        }
        #expect(starts == 9000)
        let input = dir.file("in.ndjson"), store = dir.file("store")
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let r = navlog("ingest", input, "--store", store)
        #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
        let questions = [
            ["export", "screens", "STORE", "--with-marks"],
            ["funnel", "STORE", "--step", "*", "--step", "Recipe/*", "--by", "app.version", "--format", "csv"],
            ["funnel", "STORE", "--step", "*", "--by", "app.user", "--format", "csv"],
        ]
        try Self.answersAreTheEvents(store, in: dir, questions)
        let byUser = ScreenProjectionTests.answers(store, [questions[2]])[0]
        #expect(byUser.contains("u-s-009000") && byUser.split(separator: "\n").count > 9000)
        #expect(navlog("verify", store).status == 0)
    }

    @Test("Ctrl-C during an ingest from a pipe leaves the projection complete for what was committed")
    func interrupted() throws {
        let dir = try TemporaryDirectory()
        let lines = navlog("generate", "--sessions", "150", "--seed", "9", "--interleave").stdout
            .split(separator: "\n").map { String($0) + "\n" }
        let store = dir.file("store")
        let (exited, status, _, stderr) = try IngestCommandTests.interruptedIngest(lines, store: store, extra: ["--commit-interval", "0"])
        #expect(exited && status == 130, "\(stderr)")
        #expect(stderr.contains("stopped: read up to") && !stderr.contains("projection is behind"), "\(stderr)")
        #expect(navlog("verify", store).status == 0)
        try Self.answersAreTheEvents(store, in: dir, ScreenProjectionTests.few)
        #expect(try Self.isComplete(store))
    }

    @Test("Killed mid-ingest: the projection is complete for the commits it covers or read as behind, never a wrong answer")
    func killed() throws {
        let dir = try TemporaryDirectory()
        let input = dir.file("in.ndjson")
        #expect(navlog("generate", "--sessions", "100", "--seed", "11", "--interleave", "--events-per-session", "10-40", "-o", input).status == 0)
        let questions = [ScreenProjectionTests.questions[0]]
        var killed = 0, kept = 0
        for round in 0..<3 {
            let store = dir.file("store-\(round)")
            let process = try startNavlog(["ingest", input, "--store", store, "--commit-interval", "0", "--chunk-lines", "256"])
            // Killed once a first commit is readable (between a commit and its block, often), or once a
            // first block is written (the projection then claims commits): inside or between commits.
            let deadline = Date().addingTimeInterval(30)
            while !IngestKillTests.holdsACommit(store), Date() < deadline { usleep(500) }
            while round > 0, Self.viewsBytes(store) <= Self.headerBytes, Date() < deadline { usleep(500) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            guard IngestKillTests.holdsACommit(store) else { continue }
            killed += 1
            if try !ScreenProjectionTests.projectionFiles(store).isEmpty { kept += 1 }
            try Self.answersAreTheEvents(store, in: dir, questions)
        }
        #expect(killed > 0 && kept > 0, "\(killed) killed with a commit, \(kept) of them with a projection")
    }

    /// The bytes of a store's projection files, and of a file's header record (a file of no block).
    static func viewsBytes(_ store: String) -> Int {
        ((try? ScreenProjectionTests.projectionFiles(store)) ?? []).reduce(0) {
            $0 + (((try? FileManager.default.attributesOfItem(atPath: store + "/" + $1))?[.size] as? Int) ?? 0)
        }
    }
    static let headerBytes = 28

    @Test("A store with commits and no projection is left without one, and the writer says reindex builds it")
    func noProjectionLeftAlone() throws {
        let (dir, ndjson, store) = try generatedInputs(sessions: 12)
        #expect(try ScreenProjectionTests.projectionFiles(store).isEmpty)
        let more = dir.file("more.ndjson")
        let g = navlog("generate", "--sessions", "4", "--seed", "8")
        try g.stdout.replacingOccurrences(of: "\"session\":\"s-", with: "\"session\":\"n-").write(toFile: more, atomically: false, encoding: .utf8)
        let r = navlog("ingest", more, "--store", store, "--json")
        #expect(r.status == 0 && r.stdout.contains("\"projectionBehind\":\"the store has none\""), "\(r.stdout)")
        #expect(r.stderr.contains("note: the screen projection is behind (the store has none)") && r.stderr.contains("navlog reindex \(store)"),
                "\(r.stderr)")
        #expect(try ScreenProjectionTests.projectionFiles(store).isEmpty)
        let both = navlog("funnel", ndjson, more, "--step", "*", "--step", "*", "--format", "csv")
        #expect(both.status == 0 && navlog("funnel", store, "--step", "*", "--step", "*", "--format", "csv").stdout == both.stdout)
        #expect(navlog("reindex", store).stdout.contains("1 projection file written"))
        #expect(try Self.isComplete(store))
    }
}
