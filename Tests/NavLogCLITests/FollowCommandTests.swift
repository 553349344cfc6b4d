import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A log read while another process appends to it.
@Suite struct FollowCommandTests {
    /// `navlog append` (one process) trickles events in with each one durable
    /// before the next; `navlog cat` (other processes, again and again) always
    /// prints a prefix of them, growing, and in the end all of them.
    @Test func catWhileAnotherProcessAppendsPrintsAPrefix() throws {
        let dir = try TemporaryDirectory()
        let log = dir.path("s.navlog")
        let all = StoreCommandTests.session(events: 3000, seed: 17).split(separator: "\n").map(String.init)
        signal(SIGPIPE, SIG_IGN)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: navlogBinary())
        writer.arguments = ["append", log, "--durability", "every-append"]
        let input = Pipe()
        writer.standardInput = input
        writer.standardOutput = FileHandle.nullDevice
        writer.standardError = FileHandle.nullDevice
        try writer.run()
        let feed = Data((all.joined(separator: "\n") + "\n").utf8)
        let handle = input.fileHandleForWriting
        let feeder = Thread {
            var offset = 0
            while offset < feed.count {
                let end = min(offset + 1500, feed.count)
                do { try handle.write(contentsOf: feed[offset..<end]) } catch { break }
                offset = end
                usleep(2000)
            }
            try? handle.close()
        }
        feeder.start()

        var counts: [Int] = []
        var finished = false
        while !finished {
            finished = !writer.isRunning
            guard FileManager.default.fileExists(atPath: log) else { usleep(1000); continue }
            let cat = run(navlogBinary(), ["cat", log])
            #expect(cat.status == 0, "cat while appending: \(cat.stderr)")
            let lines = cat.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
            #expect(cat.stdout.isEmpty || cat.stdout.hasSuffix("\n"), "a torn line was printed")
            #expect(Array(all.prefix(lines.count)) == lines, "not a prefix after \(lines.count) lines")
            if Array(all.prefix(lines.count)) != lines { break }
            counts.append(lines.count)
        }
        writer.waitUntilExit()
        #expect(writer.terminationStatus == 0)
        #expect(counts == counts.sorted(), "what the log holds went backwards: \(counts)")
        #expect(Set(counts.filter { $0 > 0 && $0 < all.count }).count >= 3, "too few partial reads: \(counts)")
        #expect(counts.last == all.count)
        #expect(navlog("verify", log).status == 0)
    }
}
