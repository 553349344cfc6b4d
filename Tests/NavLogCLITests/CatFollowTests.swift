import Foundation
import NavLogCore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog cat --follow` beside a writer (issue 25 point 7), and `funnel`
/// over a store a writer is appending to. Every wait is for something the
/// test can see, with a generous time limit (sanitizer builds are slow).
@Suite struct CatFollowTests {
    /// NDJSON of `sessions` sessions, interleaved; its lines.
    static func lines(sessions: Int, events: Int, seed: Int, interleave: Bool = true) -> [String] {
        var args = ["generate", "--sessions", "\(sessions)", "--seed", "\(seed)", "--events-per-session", "\(events)-\(events)"]
        if interleave { args.append("--interleave") }
        let r = navlog(args)
        precondition(r.status == 0, r.stderr)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    static func session(of line: String) -> String { (try? EventParser.parse(line).session) ?? "" }

    static func ingest(_ lines: ArraySlice<String>, into store: String, _ dir: TemporaryDirectory, name: String) throws {
        let input = try dir.file(name, lines.joined(separator: "\n") + "\n")
        let r = navlog("ingest", input, "--store", store)
        #expect(r.status == 0, "\(r.stderr)")
    }

    /// A store (`dir/store`) holding the first `count` of `lines`, and the session of the first line.
    static func store(holdingFirst count: Int, of lines: [String], in dir: TemporaryDirectory) throws -> (store: String, id: String) {
        let store = dir.file("store")
        try ingest(lines[..<count], into: store, dir, name: "first.ndjson")
        return (store, session(of: lines[0]))
    }

    /// Three ingests, one after another, while one `cat --follow` (and one
    /// with filters) runs: each ingest's events of the session are printed
    /// before the next ingest starts, then Ctrl-C ends it with exit 0; in
    /// the end every event was printed once, in order, none of another session.
    @Test(.timeLimit(.minutes(10))) func followsAStoredSessionAcrossCommits() throws {
        let dir = try TemporaryDirectory()
        let all = Self.lines(sessions: 3, events: 150, seed: 5)
        let (store, id) = try Self.store(holdingFirst: 150, of: all, in: dir)
        let follower = try FollowingProcess(["cat", store, "--session", id, "--follow"])
        let filtered = try FollowingProcess(["cat", store, "--session", id, "--follow", "--from", "40", "--type", "stack.push"])
        var start = 150
        for (part, end) in [(1, 150), (2, 300), (3, all.count)] {
            if part > 1 {
                try Self.ingest(all[start..<end], into: store, dir, name: "\(part).ndjson")
                start = end
            }
            let expected = all[..<end].filter { Self.session(of: $0) == id }
            let printed = follower.waitForLines(expected.count)
            #expect(printed == expected, "after ingest \(part): \(printed.count) lines, \(expected.count) expected")
        }
        #expect(follower.stillRunning(after: 0.2), "cat --follow ended by itself")
        let ended = follower.finish(signal: SIGINT)
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.stderr.isEmpty)
        #expect(ended.lines == navlog("cat", store, "--session", id).stdout.split(separator: "\n").map(String.init))
        #expect(ended.lines.count == 150)

        let once = navlog("cat", store, "--session", id, "--from", "40", "--type", "stack.push").stdout
            .split(separator: "\n").map(String.init)
        #expect(!once.isEmpty)
        filtered.waitForLines(once.count)
        let filteredEnd = filtered.finish(signal: SIGTERM)
        #expect(filteredEnd.status == 0, "\(filteredEnd.stderr)")
        #expect(filteredEnd.lines == once)
    }

    /// One ingest of ~12,000 lines with a commit after every chunk while
    /// `cat --follow --to N` runs: it prints the session's events once each,
    /// in order, and ends by itself (exit 0) once seq N is printed.
    @Test(.timeLimit(.minutes(10))) func followsAStoredSessionWhileOneIngestWrites() throws {
        let dir = try TemporaryDirectory()
        let all = Self.lines(sessions: 3, events: 4000, seed: 8)
        let (store, id) = try Self.store(holdingFirst: 300, of: all, in: dir)
        let rest = try dir.file("rest.ndjson", all[300...].joined(separator: "\n") + "\n")
        let follower = try FollowingProcess(["cat", store, "--session", id, "--follow", "--to", "4000"])
        let writer = try startNavlog(["ingest", rest, "--store", store, "--commit-interval", "0"])
        let ended = follower.finish(seconds: 150)
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.lines == all.filter { Self.session(of: $0) == id })
        #expect(ended.lines.count == 4000)
    }

    /// `navlog append` fed slowly from a pipe, each event durable on its
    /// own, while `cat LOG --follow` runs: each part is printed before the
    /// next is sent; Ctrl-C ends it with exit 0 and every event printed once.
    @Test(.timeLimit(.minutes(10))) func followsALogWhileAppendWrites() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let all = Self.lines(sessions: 1, events: 600, seed: 11)
        #expect(navlog("append", log, stdin: all[0..<200].joined(separator: "\n") + "\n").status == 0)
        let follower = try FollowingProcess(["cat", log, "--follow"])
        #expect(follower.waitForLines(200) == Array(all[0..<200]))
        signal(SIGPIPE, SIG_IGN)
        let input = Pipe()
        let writer = try startNavlog(["append", log, "--durability", "every-append"], input: input)
        for end in [400, 600] {
            try input.fileHandleForWriting.write(contentsOf: Data((all[(end - 200)..<end].joined(separator: "\n") + "\n").utf8))
            let printed = follower.waitForLines(end)
            #expect(printed == Array(all[0..<end]), "part ending at \(end): \(printed.count) lines")
        }
        try input.fileHandleForWriting.close()
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        let ended = follower.finish(signal: SIGINT)
        #expect(ended.status == 0, "\(ended.stderr)")
        #expect(ended.lines == all)
    }

    /// What is not there yet is refused, as without --follow (exit 2, one line).
    @Test func followRefusesAMissingSessionOrLog() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        try Self.ingest(Self.lines(sessions: 1, events: 5, seed: 2)[...], into: store, dir, name: "in.ndjson")
        for args in [["cat", store, "--session", "nobody", "--follow"], ["cat", dir.file("none.navlog"), "--follow"]] {
            let r = navlog(args)
            #expect(r.status == 2, "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty)
            #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        }
    }

    /// `funnel STORE` run again and again while an ingest appends: each
    /// answer is that of the commits made before it opened (exit 0, nothing
    /// on stderr, as many sessions as the store held then: between the
    /// counts before and after, never fewer than the answer before it), and
    /// the last agrees with the funnel of the whole input.
    @Test(.timeLimit(.minutes(10))) func funnelWhileAnIngestWritesAnswersFromCommittedSessions() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let all = Self.lines(sessions: 120, events: 50, seed: 21, interleave: false)   // 6,000 lines: a commit inside the second ingest
        let whole = try dir.file("all.ndjson", all.joined(separator: "\n") + "\n")
        let firstPart = all.firstIndex { Self.session(of: $0) == Self.session(of: all[all.count / 4]) } ?? 0
        try Self.ingest(all[..<firstPart], into: store, dir, name: "first.ndjson")
        let rest = try dir.file("rest.ndjson", all[firstPart...].joined(separator: "\n") + "\n")
        /// The funnel's JSON and how many sessions it counted.
        func funnel(_ path: String) throws -> (json: String, sessions: Int) {
            let r = navlog("funnel", path, "--step", "*", "--format", "json")
            #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
            let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
            return (r.stdout, try #require(object?["sessions"] as? Int))
        }
        let before = try funnel(store).sessions
        let after = try funnel(whole)
        #expect(before > 0 && before < after.sessions)
        let writer = try startNavlog(["ingest", rest, "--store", store, "--commit-interval", "0"])
        var answers: [Int] = []
        repeat {
            answers.append(try funnel(store).sessions)
        } while writer.isRunning && answers.count < 500
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        let last = try funnel(store)
        answers.append(last.sessions)
        #expect(answers.allSatisfy { $0 >= before && $0 <= after.sessions }, "\(answers)")
        #expect(answers == answers.sorted(), "an answer went backwards: \(answers)")
        #expect(last.json == after.json)
    }
}
