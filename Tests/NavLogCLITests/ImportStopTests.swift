import Foundation
import Testing
import NavLogTestSupport

/// Ctrl-C and `--commit-interval` during `navlog import`, as during ingest:
/// the records read are stored or rejected, the store is closed, and the
/// summary names the last line read.
@Suite("ImportStop")
struct ImportStopTests {
    static let header = "sid,event,at,screen\n"
    static let options = ["--session", "sid", "--time", "at", "--event", "event", "--screens", "screen_*", "--screen-name", "screen"]

    /// 3,000 CSV records of 30 sessions, one line each, in time order.
    static func records() -> [String] {
        (0..<3_000).map { i in
            let second = 1_795_168_800 + i
            return "s\(i % 30),screen_view,\(second * 1000),Screen\(i % 7)\n"
        }
    }

    /// `navlog import csv -` given the header and the first 2,000 records,
    /// then SIGINT, then the rest: it stops at the next check (every 1,024
    /// records, or when the pipe pauses).
    static func interruptedImport(store: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try PipedNavlog.interrupted(["import", "csv", "-", "--store", store, "--commit-interval", "100"] + options, store: store,
                                              first: Data((header + records()[..<2_000].joined()).utf8),
                                              rest: Data(records()[2_000...].joined().utf8))
        return (run.status, run.stdout, run.stderr)
    }

    @Test(.timeLimit(.minutes(10))) func anInterruptedImportStopsCleanlyAndARerunFinishesIt() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let (status, stdout, stderr) = try Self.interruptedImport(store: store)
        #expect(status == 130, "\(stderr)")
        let match = try #require(stderr.firstMatch(of: /stopped: read up to <stdin>:(\d+); nothing after it was read/), "\(stderr)")
        // Line 1 is the header: line N is record N - 1.
        let lastLine = try #require(Int(match.1))
        #expect(lastLine > 1_000 && lastLine < 3_001, "\(lastLine)")
        #expect(stdout == "stored \(lastLine - 1) events of 30 sessions (30 new) from \(lastLine - 1) records in \(store); 0 records rejected\n")
        #expect(try SegmentStoreContents.problems(store) == [])
        // An import numbers events within its run, so it is finished by running it again whole:
        // what was stored before the stop is already stored.
        let again = navlog(["import", "csv", "-", "--store", store] + Self.options, stdin: Self.header + Self.records().joined())
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasSuffix("; \(lastLine - 1) events already stored\n"), "\(again.stdout)")
        let whole = navlog(["import", "csv", "-", "--store", dir.file("whole")] + Self.options,
                           stdin: Self.header + Self.records().joined())
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try SegmentStoreContents.lines(store) == SegmentStoreContents.lines(dir.file("whole")))
    }

    @Test func theJSONSummaryOfAnImportCarriesStopped() throws {
        let dir = try TemporaryDirectory()
        let r = navlog(["import", "csv", "-", "--store", dir.file("store"), "--json"] + Self.options,
                       stdin: Self.header + Self.records()[..<10].joined())
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["stopped"] is NSNull)
        #expect(object["stored"] as? Int == 10)
    }

    @Test func commitIntervalIsCheckedForImportsToo() {
        let r = navlog(["import", "csv", "-", "--store", "unused", "--commit-interval", "-1"] + Self.options, stdin: Self.header)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--commit-interval must be 0 or more"), "\(r.stderr)")
    }
}
