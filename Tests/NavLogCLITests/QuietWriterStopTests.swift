import Foundation
import Testing
import NavLogTestSupport

/// Ctrl-C while the writer of a pipe has gone quiet (a collector between
/// bursts, `tail -f` of a file nobody writes): `ingest` and `import` stop
/// at once, with the input still open, store what they read, and name the
/// last line, as they do between chunks of a busy input.
@Suite("QuietWriterStop")
struct QuietWriterStopTests {
    /// 40 events of 4 sessions, canonical lines.
    static func lines() -> String {
        let all = navlog("generate", "--sessions", "4", "--seed", "3", "--interleave").stdout.split(separator: "\n")
        return all.prefix(40).map { $0 + "\n" }.joined()
    }

    /// It ended on the signal with its input open, exit 130, after `line`,
    /// printing `summary`, and left `store` sound.
    static func expectStopped(_ run: (endedWhileOpen: Bool, status: Int32, stdout: String, stderr: String),
                              afterLine line: Int, summary: String, store: String) throws {
        #expect(run.endedWhileOpen, "still waiting for input 20 s after SIGINT: \(run.stderr)")
        #expect(run.status == 130, "\(run.stderr)")
        #expect(run.stderr.contains("stopped: read up to <stdin>:\(line); nothing after it was read"), "\(run.stderr)")
        #expect(run.stdout.hasPrefix(summary), "\(run.stdout)")
        #expect(try SegmentStoreContents.problems(store) == [])
    }

    @Test(arguments: [[String](), ["--commit-interval", "50"]])
    func anIngestStopsWhileItsWriterIsQuiet(extra: [String]) throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let run = try PipedNavlog.interruptedWhileQuiet(["ingest", "-", "--store", store] + extra, store: store,
                                                        first: Data(Self.lines().utf8))
        try Self.expectStopped(run, afterLine: 40, summary: "stored 40 events of 4 sessions", store: store)
    }

    @Test func anNDJSONImportStopsWhileItsWriterIsQuiet() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let records = try Data(contentsOf: URL(fileURLWithPath: ImportCommandTests.fixture("ga4.ndjson")))
        let run = try PipedNavlog.interruptedWhileQuiet(["import", "ga4", "-", "--store", store], store: store, first: records)
        try Self.expectStopped(run, afterLine: 6, summary: "stored 9 events of 3 sessions (3 new) from 6 records", store: store)
    }

    /// A CSV record whose quoted field spans lines is finished before the
    /// import stops: the stop waits for its last line, and nothing is lost.
    @Test func aCSVImportStopsBetweenRecordsOnly() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let whole = ImportStopTests.header + ImportStopTests.records()[..<20].joined()
        let run = try PipedNavlog.interruptedWhileQuiet(["import", "csv", "-", "--store", store] + ImportStopTests.options,
                                                        store: store, first: Data(whole.utf8))
        try Self.expectStopped(run, afterLine: 21, summary: "stored 20 events of 20 sessions", store: store)

        let open = dir.file("open")
        let opened = ImportStopTests.header + ImportStopTests.records()[..<5].joined() + "s1,screen_view,1795168900000,\"Screen\n"
        let halfway = try PipedNavlog.interruptedWhileQuiet(["import", "csv", "-", "--store", open] + ImportStopTests.options,
                                                            store: open, first: Data(opened.utf8), seconds: 1)
        // Line 7 opens a quoted field: the stop waits for the record to end.
        // Here the input closes instead, and the half record is rejected, not lost.
        #expect(!halfway.endedWhileOpen, "\(halfway.stderr)")
        #expect(halfway.stdout.contains("6 records"), "\(halfway.stdout) \(halfway.stderr)")
        #expect(halfway.stderr.contains("<stdin>:7"), "\(halfway.stderr)")
    }
}
