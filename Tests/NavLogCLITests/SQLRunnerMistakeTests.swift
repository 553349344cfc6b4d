import Foundation
import Testing
import NavLogTestSupport

/// The SQL and Spark runners (tools/duckdb-funnel, tools/duckdb-paths,
/// tools/spark-funnel) given something that is not an export — a missing
/// path, a store, an export made without --with-marks, NDJSON — say so in
/// one line with what to run, exit 2, before any engine starts.
@Suite struct SQLRunnerMistakeTests {
    static func tool(_ name: String) -> String { repositoryRoot.appendingPathComponent("tools/" + name).path }

    @Test func aMistakenInputIsOneLine() throws {
        let dir = try TemporaryDirectory()
        let ndjson = try dir.file("in.ndjson", navlog("generate", "--sessions", "5", "--seed", "2").stdout)
        let store = dir.file("st")
        #expect(navlog("ingest", ndjson, "--store", store).status == 0)
        let plain = dir.file("plain.csv")
        try navlog("export", "screens", store).stdout.write(toFile: plain, atomically: false, encoding: .utf8)
        let withMarks = "navlog export screens STORE --with-marks --output DIR"
        let cases: [(tool: String, input: String, line: String)] = [
            ("duckdb-funnel", dir.file("nope"), "\(dir.file("nope")): no such file or directory"),
            ("duckdb-funnel", store, "\(store): a navlog store, not an export of one: run `\(withMarks)` and give its output"),
            ("duckdb-funnel", plain, "\(plain): an export made without --with-marks (no kind column): run `\(withMarks)`"),
            ("duckdb-funnel", ndjson, "\(ndjson): not the CSV of `\(withMarks)` (its header is not session,seq,t,scene,screen…)"),
            ("duckdb-funnel", store + "/00000001.nls", "\(store)/00000001.nls: binary data, not the CSV of `\(withMarks)`"),
            ("spark-funnel", store, "\(store): a navlog store, not an export of one: run `\(withMarks)` and give its output"),
            ("spark-funnel", dir.file("nope"), "\(dir.file("nope")): no such file or directory"),
            ("duckdb-paths", store, "\(store): a navlog store, not an export of one: run `navlog export screens STORE > SCREENS.csv` and give its output"),
            ("duckdb-paths", dir.file("nope"), "\(dir.file("nope")): no such file or directory"),
        ]
        for c in cases {
            let args = c.tool == "duckdb-paths" ? [c.input] : [c.input, "--step", "*"]
            let r = run(Self.tool(c.tool), args)
            #expect(r.status == 2 && r.stderr == "\(c.tool): \(c.line)\n", "\(c.tool) \(c.input): \(r.status) \(r.stderr.prefix(400))")
            #expect(r.stdout.isEmpty)
        }
    }
}
