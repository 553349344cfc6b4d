import Foundation
import NavLogCore
import NavLogStore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog ingest` killed (SIGKILL) at random moments:
/// after each kill the store opens, the verifier finds at most a torn tail,
/// and every session's stored events are a prefix of its input events;
/// a last ingest to the end then leaves exactly the input. The input is
/// small and handed on in chunks of a few lines, each chunk a commit, so
/// that the kills fall among many commits in little time.
@Suite struct IngestKillTests {
    /// Lines a chunk (`--chunk-lines`): with `--commit-interval 0`, a commit each.
    static let chunk = ["--commit-interval", "0", "--chunk-lines", "64"]

    @Test(.timeLimit(.minutes(10))) func killedAtAnyMomentTheStoreHoldsAPrefixOfEachSession() throws {
        let dir = try TemporaryDirectory()
        let text = navlog("generate", "--sessions", "40", "--seed", "13", "--interleave", "--events-per-session", "10-30").stdout
        let input = try dir.file("in.ndjson", text)
        var expected: [String: [String]] = [:]
        for line in text.split(separator: "\n") { expected[try EventParser.parse(String(line)).session, default: []].append(String(line)) }
        let total = expected.values.reduce(0) { $0 + $1.count }
        #expect(total > 4 * 64)   // several commits inside the input
        let kills = ProcessInfo.processInfo.environment["NAVLOG_TEST_SANITIZER"] == nil ? 100 : 10
        // How long a whole ingest takes here (a debug build, a sanitizer, a
        // loaded machine): the kills are spread evenly over it, each at a
        // random moment of its own slice, so they fall before, between and
        // inside its commits whatever the speed.
        let started = DispatchTime.now().uptimeNanoseconds
        #expect(navlog(["ingest", input, "--store", dir.file("timed")] + Self.chunk).status == 0)
        let whole = max(DispatchTime.now().uptimeNanoseconds - started, 50_000_000) / 1_000
        try FileManager.default.removeItem(atPath: dir.file("timed"))
        var rng = SeededGenerator(seed: 29)
        var partial = 0, checked = 0
        var fewest: (count: Int, store: String)?
        for round in 0..<kills {
            let store = dir.file("store-\(round)")
            // A commit after every chunk of lines: kills fall between commits and inside them.
            let process = try startNavlog(["ingest", input, "--store", store] + Self.chunk)
            if round % 2 == 0 {
                let slice = whole / UInt64(kills)
                usleep(UInt32(slice * UInt64(round) + rng.next() % slice))
            } else {
                // The other half wait until a first commit can be read, then kill at once: between commits.
                let deadline = DispatchTime.now().uptimeNanoseconds + 2 * whole * 1_000
                while !Self.holdsACommit(store), DispatchTime.now().uptimeNanoseconds < deadline { usleep(500) }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            guard FileManager.default.fileExists(atPath: store + "/navlog-store") else { continue }   // killed before it made the store
            checked += 1
            let report = try SegmentVerifier.verify(store: SegmentStore.open(at: store))
            #expect(report.isIntactButTail, "kill \(round): \(report.problems)")
            let stored = try SegmentStoreContents.lines(store)
            for (session, lines) in stored {
                let whole = try #require(expected[session], "kill \(round): \(session) is not in the input")
                #expect(lines.count <= whole.count && Array(whole.prefix(lines.count)) == lines, "kill \(round): \(session)")
            }
            let count = stored.values.reduce(0) { $0 + $1.count }
            if count > 0 && count < total {
                partial += 1
                if count < fewest?.count ?? Int.max { fewest = (count, store) }
            }
            if fewest?.store != store { try? FileManager.default.removeItem(atPath: store) }
        }
        #expect(partial > 0, "no kill came between a commit and the end of an ingest")
        #expect(checked >= kills / 2, "most kills came after the store was made")
        // To the end, from what a kill left part-way (the least of them: a
        // stored event given again is a lookup): exactly the input.
        let last = try #require(fewest).store
        let r = navlog("ingest", input, "--store", last)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try SegmentStoreContents.lines(last) == expected)
        #expect(try SegmentStoreContents.problems(last) == [])
    }

    /// Whether a reader of `store` sees a commit (while a writer may be writing it).
    static func holdsACommit(_ store: String) -> Bool {
        guard let opened = try? SegmentStore.open(at: store), let reader = try? SegmentReader(store: opened) else { return false }
        return reader.commitCount > 0
    }
}
