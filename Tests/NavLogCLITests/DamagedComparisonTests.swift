import Foundation
import NavLogStore
import Testing
import NavLogTestSupport

/// `bisect` and `diff` answer two logs from their indexes and checkpoints,
/// so a damaged block they skip is not read: they say so on standard error,
/// and with `--check-blocks` they check every block first and report the
/// damage (exit 1, file and byte offset) as `verify` does.
@Suite struct DamagedComparisonTests {
    /// A 20,000-event log, a copy with one byte flipped inside a data block
    /// that neither command needs to read, and where that byte is.
    static func logs() throws -> (dir: TemporaryDirectory, good: String, damaged: String, offset: Int64) {
        let dir = try TemporaryDirectory()
        let events = navlog("generate", "--sessions", "1", "--events-per-session", "20000-20000", "--seed", "5").stdout
        let good = dir.file("good.navlog"), damaged = dir.file("damaged.navlog")
        #expect(navlog("append", good, stdin: events).status == 0)
        let blocks = try LogReader(path: good).blocks
        try #require(blocks.count >= 4)
        let block = blocks[1]
        let offset = block.dataOffset + Int64(block.dataLength / 2)
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: good)))
        bytes[Int(offset)] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: damaged))
        let verify = navlog("verify", damaged)
        #expect(verify.status == 1, "the flip must be damage verify sees: \(verify.stdout)")
        return (dir, good, damaged, offset)
    }

    @Test func bisectAndDiffSayTheBlocksWereNotChecked() throws {
        let (dir, good, damaged, _) = try Self.logs()
        _ = dir
        for args in [["bisect", good, damaged], ["diff", good, damaged]] {
            let r = navlog(args)
            #expect(r.status == 0, "\(args[0]): \(r.stderr)")
            #expect(r.stdout.hasPrefix(args[0] == "bisect" ? "no divergence" : "no difference"), "\(args[0]): \(r.stdout)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1, "\(args[0]): \(r.stderr)")
            #expect(r.stderr.contains("not checked for damage") && r.stderr.contains(damaged) && r.stderr.contains("--check-blocks"),
                    "\(args[0]): \(r.stderr)")
        }
        // A log whose every block was read has nothing to say.
        let small = try dir.file("small.ndjson", navlog("generate", "--sessions", "1", "--events-per-session", "20-20").stdout)
        let log = dir.file("small.navlog")
        #expect(navlog("append", log, stdin: try String(contentsOfFile: small, encoding: .utf8)).status == 0)
        let quiet = navlog("bisect", log, log)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    @Test func checkBlocksReportsTheDamage() throws {
        let (dir, good, damaged, offset) = try Self.logs()
        _ = dir
        for args in [["bisect", good, damaged], ["diff", good, damaged], ["bisect", damaged, good, "--json"], ["diff", damaged, good, "--at", "3000"]] {
            let r = navlog(args + ["--check-blocks"])
            #expect(r.status == 1, "\(args): \(r.stdout)\(r.stderr)")
            #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
            let block = try LogReader(path: good).blocks[1]
            // One line naming the file, the LZ4 block at fault (at or before the flipped byte) and the frame.
            #expect(r.stderr.hasPrefix("navlog: \(damaged): byte "), "\(args): \(r.stderr)")
            #expect(r.stderr.contains("frame \(block.dataFrameIndex)") && r.stderr.contains("checksum"), "\(args): \(r.stderr)")
            let at = r.stderr.dropFirst("navlog: \(damaged): byte ".count).prefix { $0.isNumber }
            let reported = try #require(Int64(at))
            #expect(reported >= block.dataOffset && reported <= offset, "\(args): \(r.stderr)")
            #expect(r.stderr.split(separator: "\n").count == 1)
        }
        // Intact logs pass the check and give the same answer, with nothing on standard error.
        for args in [["bisect", good, good], ["diff", good, good]] {
            let r = navlog(args + ["--check-blocks"])
            #expect(r.status == 0 && r.stderr.isEmpty, "\(args): \(r.stderr)")
        }
    }
}
