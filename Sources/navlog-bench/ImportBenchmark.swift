#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogSample
import NavLogStore
import NavLogTestSupport

/// `navlog-bench import [--records N] [--runs K]`: throughput of `navlog
/// import ga4` and `navlog import csv` (records/s) on generated exports of
/// at least N records (default 1,000,000), against the peer `navlog ingest`
/// (StoreIngester) storing the same events as navlog NDJSON, all in one run.
///
/// The inputs are SampleGenerator sessions (interleaved, 64 live at once)
/// rendered by FlatExportWriter: one GA4 record or CSV row per screen view
/// and mark. Each run imports into a fresh store in a temporary directory.
enum ImportBenchmark {
    static func run(_ arguments: [String]) {
        var records = 1_000_000
        var runs = 3
        var i = 0
        while i < arguments.count {
            if arguments[i] == "--records", i + 1 < arguments.count, let n = Int(arguments[i + 1]) { records = n; i += 2 }
            else if arguments[i] == "--runs", i + 1 < arguments.count, let n = Int(arguments[i + 1]) { runs = max(1, n); i += 2 }
            else { fatalError("usage: navlog-bench import [--records N] [--runs K]") }
        }
        let directory = try! TemporaryDirectory(keep: getenv("NAVLOG_BENCH_KEEP") != nil)
        let dir = directory.path
        // NAVLOG_BENCH_KEEP=1 keeps the inputs and stores for a look.
        defer { if getenv("NAVLOG_BENCH_KEEP") == nil { directory.remove() } else { print("kept \(dir)") } }

        let (ga4Records, csvRows, events) = generate(into: dir, records: records)
        print("import benchmark: \(ga4Records) GA4 records (\(size(dir + "/ga4.ndjson") >> 20) MiB), \(csvRows) CSV rows "
              + "(\(size(dir + "/events.csv") >> 20) MiB); peer: ingest of the \(events) navlog events they hold "
              + "(\(size(dir + "/events.ndjson") >> 20) MiB); median of \(runs) runs; \(machineDescription())")

        sync()   // the inputs' dirty pages are not the imports' fsyncs to pay
        var storeIndex = 0
        func freshStore() -> SegmentStore {
            storeIndex += 1
            sync()
            return try! SegmentStore.create(at: dir + "/store-\(storeIndex)")
        }
        let ga4 = medianSeconds(runs: runs) {
            var converter = GA4Converter()
            let report = try! StoreImporter(store: freshStore()).importLines(paths: [dir + "/ga4.ndjson"], converter: &converter, onReject: { fatalError("\($0)") })
            precondition(report.read == ga4Records && report.rejected == 0)
        }
        let csv = medianSeconds(runs: runs) {
            let converter = CSVEventConverter(
                columns: .init(session: ["user_id", "session_id"], time: "timestamp", event: "event", screenName: "screen"),
                screens: GlobPattern("screen_view"))
            let report = try! StoreImporter(store: freshStore()).importCSV(paths: [dir + "/events.csv"], converter: converter, onReject: { fatalError("\($0)") })
            precondition(report.read == csvRows && report.rejected == 0)
        }
        let ingest = medianSeconds(runs: runs) {
            let report = try! StoreIngester(store: freshStore()).ingest(paths: [dir + "/events.ndjson"], onReject: { fatalError("\($0)") })
            precondition(report.stored == events)
        }
        // The conversion alone (no storage): where the time goes.
        let convertOnly = medianSeconds(runs: runs) {
            var converter = GA4Converter()
            var out: [Event] = []
            let reader = try! NDJSONLineReader(path: dir + "/ga4.ndjson")
            try! reader.forEachLine { (line) throws(Never) in
                out.removeAll(keepingCapacity: true)
                try! converter.convert(line.bytes, record: line.number, into: &out)
            }
        }
        func rate(_ n: Int, _ s: Double) -> String { String(Int((Double(n) / s).rounded())) }
        func ratio(_ a: Double, _ b: Double) -> String { String(Double(Int(a / b * 100)) / 100) }
        let ingestRate = Double(events) / ingest.median
        print("import ga4: \(rate(ga4Records, ga4.median)) records/s (\(rate(ga4Records + (events - ga4Records), ga4.median)) events/s), "
              + "\(String(format3(ga4.median))) s; events/s vs ingest: \(ratio(Double(events) / ga4.median, ingestRate))x")
        print("import csv: \(rate(csvRows, csv.median)) records/s, \(format3(csv.median)) s; events/s vs ingest: "
              + "\(ratio(Double(csvRows) / csv.median, ingestRate))x")
        print("ingest (peer): \(rate(events, ingest.median)) events/s, \(format3(ingest.median)) s")
        print("ga4 conversion alone: \(rate(ga4Records, convertOnly.median)) records/s")
        print("peak RSS: \(peakRSSBytes() >> 20) MiB")
    }

    static func format3(_ s: Double) -> String { String(Double(Int(s * 1000)) / 1000) }

    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Writes ga4.ndjson, events.csv and events.ndjson (the events the GA4
    /// import stores, as navlog NDJSON) with at least `records` records each.
    static func generate(into dir: String, records: Int) -> (ga4: Int, csv: Int, events: Int) {
        let ga4File = fopen(dir + "/ga4.ndjson", "w")!, csvFile = fopen(dir + "/events.csv", "w")!, ndjson = fopen(dir + "/events.ndjson", "w")!
        defer { fclose(ga4File); fclose(csvFile); fclose(ndjson) }
        func put(_ s: String, _ f: UnsafeMutablePointer<FILE>) { var s = s + "\n"; s.withUTF8 { _ = fwrite($0.baseAddress, 1, $0.count, f) } }
        put(FlatExportWriter.csvHeader, csvFile)
        var writer = FlatExportWriter()
        var csvWriter = FlatExportWriter()
        var converter = GA4Converter()
        var sequencer = Sequencer()
        var canonical = CanonicalWriter(capacity: 1024)
        var out: [Event] = []
        var ga4 = 0, csv = 0, events = 0
        var sessions = max(1, records / 50)
        while ga4 < records || csv < records {
            let generator = SampleGenerator(SampleGenerator.Options(sessions: sessions, seed: UInt64(7 + ga4), interleave: true, liveSessions: 64))
            for event in generator.events() {
                for record in writer.ga4Records(for: event) {
                    put(record, ga4File)
                    ga4 += 1
                    out.removeAll(keepingCapacity: true)
                    try! converter.convert(record, record: ga4, into: &out)
                    for var e in out {
                        try! sequencer.accept(&e)
                        canonical.reset()
                        canonical.write(e)
                        put(canonical.string, ndjson)
                        events += 1
                    }
                }
                for row in csvWriter.csvRows(for: event) { put(row, csvFile); csv += 1 }
            }
            sessions = max(1, sessions / 4)
        }
        return (ga4, csv, events)
    }
}
