import Foundation
import Testing
import NavLogTestSupport

/// The DuckDB runners `navlog-bench analytics` sets beside navlog (the
/// Python module; `tools/setup --test` installs it) give exactly navlog's
/// CSV on a generated segment store: `tools/duckdb-paths` (tools/paths.sql)
/// that of `navlog paths`, and `tools/duckdb-funnel --by FIELD` that of
/// `navlog funnel --by FIELD`.
@Suite struct PathsAndFunnelBySQLTests {
    static func tool(_ name: String) -> String { repositoryRoot.appendingPathComponent("tools/" + name).path }

    /// 300 interleaved sessions of 2–30 events as NDJSON, stored with `navlog ingest`, and the store's screens CSVs.
    static func store(_ dir: TemporaryDirectory) throws -> (ndjson: String, store: String, withMarks: String, plain: String) {
        let ndjson = dir.file("s.ndjson"), store = dir.file("store")
        let generated = navlog("generate", "--sessions", "300", "--events-per-session", "2-30", "--seed", "21", "--interleave", "--output", ndjson)
        #expect(generated.status == 0, "\(generated.stderr)")
        let ingested = navlog("ingest", ndjson, "--store", store)
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let withMarks = navlog("export", "screens", store, "--with-marks")
        let plain = navlog("export", "screens", store)
        #expect(withMarks.status == 0 && plain.status == 0, "\(withMarks.stderr) \(plain.stderr)")
        return (ndjson, store, try dir.file("marks.csv", withMarks.stdout), try dir.file("plain.csv", plain.stdout))
    }

    @Test func duckDBPathsAgreesWithNavlog() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.store(dir)
        // Every transition (ties and their order included) over the --with-marks CSV, the default top 10 over the plain one.
        for (csv, top) in [(s.withMarks, "100000"), (s.plain, "10")] {
            let ours = navlog("paths", s.store, "--format", "csv", "--top", top)
            let theirs = run(Self.tool("duckdb-paths"), [csv, "--top", top])
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(theirs.status == 0, "tools/duckdb-paths failed (tools/setup --test installs duckdb): \(theirs.stderr)")
            #expect(ours.stdout == theirs.stdout, "top \(top)")
            #expect(ours.stdout.split(separator: "\n").count > 10, "a vacuous agreement: \(ours.stdout)")
        }
    }

    @Test func duckDBFunnelByAgreesWithNavlog() throws {
        let dir = try TemporaryDirectory()
        let s = try Self.store(dir)
        let steps = ["tab:home", "Category/*", "Recipe/*", "Step/*", "mark:add-to-cart"].flatMap { ["--step", $0] }
        // A string field with a window, and one without.
        for (field, within) in [("app.version", true), ("device.idiom", false)] {
            let ours = navlog(["funnel", s.store, "--format", "csv", "--by", field] + (within ? ["--within", "10m"] : []) + steps)
            let theirs = run(Self.tool("duckdb-funnel"), [s.withMarks, "--by", field] + (within ? ["--within-ms", "600000"] : []) + steps)
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(theirs.status == 0, "tools/duckdb-funnel failed: \(theirs.stderr)")
            #expect(ours.stdout == theirs.stdout, "--by \(field)")
            // Not vacuous: several segments, and sessions reaching step 2 in them.
            let rows = ours.stdout.split(separator: "\n").dropFirst()
            #expect(Set(rows.map { $0.prefix { $0 != "," } }).count > 1, "\(ours.stdout)")
            #expect(rows.contains { $0.contains(",2,Category/*,") && !$0.contains(",2,Category/*,0,") }, "\(ours.stdout)")
        }
    }

    @Test func thePathsSQLIsTheOneTheToolFillsIn() throws {
        let sql = try String(contentsOfFile: Self.tool("paths.sql"), encoding: .utf8)
        let filled = run(Self.tool("duckdb-paths"), ["x.csv", "--print-sql"])
        #expect(filled.status == 0)
        #expect(filled.stdout == sql)
    }
}
