import Foundation
import Testing
import NavLogTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog ingest -` fed from a pipe a little at a time, as a collector
/// feeds it: what it was given is committed once the commit interval has
/// passed with the pipe quiet, long before a chunk of lines fills up or the
/// pipe closes, so readers see it.
@Suite struct IngestPipeTests {
    @Test func aPausedPipeIsCommittedWithinTheInterval() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let all = StoreCommandTests.session(events: 90, seed: 5).split(separator: "\n").map(String.init)
        signal(SIGPIPE, SIG_IGN)
        let input = Pipe()
        let ingest = try startNavlog(["ingest", "-", "--store", store, "--commit-interval", "50"], input: input)
        let handle = input.fileHandleForWriting

        /// The number of events `cat` shows of the session (0 while the store does not hold it).
        func storedEvents() -> Int {
            let cat = run(navlogBinary(), ["cat", store, "--session", "s-000001"])
            return cat.status == 0 ? cat.stdout.split(separator: "\n").count : 0
        }
        var seen: [Int] = []
        for end in [30, 60] {
            try handle.write(contentsOf: Data((all[(end - 30)..<end].joined(separator: "\n") + "\n").utf8))
            // The pipe stays open: the events must become visible anyway.
            let deadline = Date().addingTimeInterval(120)
            while storedEvents() != end, Date() < deadline { usleep(20_000) }
            seen.append(storedEvents())
        }
        #expect(seen == [30, 60], "events visible while the pipe stays open: \(seen)")
        try handle.write(contentsOf: Data((all[60...].joined(separator: "\n") + "\n").utf8))
        try handle.close()
        ingest.waitUntilExit()
        #expect(ingest.terminationStatus == 0)
        #expect(storedEvents() == all.count)
    }
}
