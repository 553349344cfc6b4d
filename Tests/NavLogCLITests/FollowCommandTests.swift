import Foundation
import Testing
import NavLogTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A log read while another process appends to it.
@Suite struct FollowCommandTests {
    /// `navlog append` (one process) trickles events in with each one durable
    /// before the next; `navlog cat` (other processes, again and again) always
    /// prints a prefix of them, growing, and in the end all of them. The input
    /// comes in three parts, and each part is seen whole before the next is
    /// sent, so at least two partial reads are certain however loaded the
    /// machine is.
    @Test func catWhileAnotherProcessAppendsPrintsAPrefix() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        let all = StoreCommandTests.session(events: 3000, seed: 17).split(separator: "\n").map(String.init)
        signal(SIGPIPE, SIG_IGN)
        let input = Pipe()
        let writer = try startNavlog(["append", log, "--durability", "every-append"], input: input)
        let handle = input.fileHandleForWriting

        var counts: [Int] = []
        /// Reads the log once; false when what it printed is not a prefix.
        func readOnce() -> Bool {
            guard FileManager.default.fileExists(atPath: log) else { return true }
            let cat = run(navlogBinary(), ["cat", log])
            #expect(cat.status == 0, "cat while appending: \(cat.stderr)")
            let lines = cat.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(cat.stdout.isEmpty || cat.stdout.hasSuffix("\n"), "a torn line was printed")
            guard Array(all.prefix(lines.count)) == lines else {
                Issue.record("not a prefix after \(lines.count) lines")
                return false
            }
            counts.append(lines.count)
            return true
        }
        var sent = 0
        partsLoop: for end in [1000, 2000, 3000] {
            // Trickled in, reading all the while.
            let part = Data((all[sent..<end].joined(separator: "\n") + "\n").utf8)
            var offset = 0
            var chunks = 0
            while offset < part.count {
                let chunkEnd = min(offset + 1500, part.count)
                try handle.write(contentsOf: part[offset..<chunkEnd])
                offset = chunkEnd
                chunks += 1
                if chunks % 5 == 0, !readOnce() { break partsLoop }
            }
            sent = end
            if end == all.count { try handle.close() }
            // Then read until the whole part is there (every-append: it will be).
            let deadline = Date().addingTimeInterval(120)
            while counts.last != end, Date() < deadline {
                if !readOnce() { break partsLoop }
                usleep(2000)
            }
            #expect(counts.last == end, "part ending at \(end) not seen: \(counts.suffix(5))")
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(counts == counts.sorted(), "what the log holds went backwards: \(counts)")
        #expect(counts.contains(1000) && counts.contains(2000), "partial reads: \(Set(counts).sorted())")
        #expect(counts.last == all.count)
        #expect(navlog("verify", log).status == 0)
    }
}
