import Foundation
import NavLogCore
import NavLogSample
import Testing
import NavLogTestSupport

/// A funnel over an imported CSV event stream equals the same funnel that
/// DuckDB computes directly over the raw CSV (tools/duckdb-csv-funnel, which
/// runs tools/funnel.sql). DuckDB is Python's `duckdb`, which
/// `tools/setup --test` installs: without it the test fails, it is not skipped.
@Suite struct ImportFunnelDuckDBTests {
    static let steps = ["tab:*", "Recipe/*", "mark:add-to-cart", "mark:purchase"]

    @Test(arguments: [nil, "90s"] as [String?])
    func importedCSVFunnelEqualsDuckDBOverTheRawCSV(within: String?) throws {
        let dir = try TemporaryDirectory()
        // 300 generated sessions as an Amplitude-style event stream.
        var writer = FlatExportWriter()
        var text = FlatExportWriter.csvHeader + "\n"
        for event in SampleGenerator(SampleGenerator.Options(sessions: 300, seed: 17, interleave: true)).events() {
            for row in writer.csvRows(for: event) { text += row + "\n" }
        }
        let csv = try dir.file("events.csv", text)
        let columns = ["--session", "user_id,session_id", "--time", "timestamp", "--event", "event"]
        let screens = ["--screens", "screen_view", "--screen-name", "screen"]
        let imported = run(navlogBinary(), ["import", "csv", csv, "--store", dir.file("logs")] + columns + screens)
        #expect(imported.status == 0, "\(imported.stderr)")

        let stepArgs = Self.steps.flatMap { ["--step", $0] }
        let navlogFunnel = run(navlogBinary(), ["funnel", dir.file("logs")] + stepArgs + ["--format", "csv"]
                                                + (within.map { ["--within", $0] } ?? []))
        #expect(navlogFunnel.status == 0, "\(navlogFunnel.stderr)")
        let duck = run("/usr/bin/env", ["python3", repositoryRoot.appendingPathComponent("tools/duckdb-csv-funnel").path, csv]
                       + columns + screens + stepArgs + (within.map { _ in ["--within-ms", "90000"] } ?? []))
        #expect(duck.status == 0, "tools/duckdb-csv-funnel failed (tools/setup --test installs duckdb): \(duck.stderr)")
        #expect(navlogFunnel.stdout == duck.stdout)
        // The funnel is not trivial: every step is reached by some sessions, not all.
        let reached = navlogFunnel.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false)[2] }
        #expect(reached.count == Self.steps.count)
        #expect(reached.allSatisfy { Int($0) ?? 0 > 0 && Int($0) ?? 0 < 300 }, "\(navlogFunnel.stdout)")
    }
}
