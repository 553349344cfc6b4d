import Foundation
import Testing
import NavLogTestSupport

/// `tools/funnel.sql` run in DuckDB (the Python module; `tools/setup --test`
/// installs it) over `navlog export screens --with-marks` gives exactly the
/// numbers of `navlog funnel` on generated sessions, window included.
@Suite struct FunnelSQLTests {
    static let runner = repositoryRoot.appendingPathComponent("tools/duckdb-funnel").path

    static let funnels: [(steps: [String], withinMs: Int?)] = [
        (["tab:*", "Recipe/*", "mark:purchase"], nil),
        (["tab:*", "Recipe/*", "mark:purchase"], 120_000),
        (["url:*", "Recipe/*", "mark:add-to-cart"], 30_000),
        (["Recipe/*", "Recipe/*", "Recipe/*"], 60_000),
        (["*", "modal:*", "mark:share", "*"], nil),
        (["Category/*", "Recipe/*", "mark:add-to-cart", "mark:purchase", "tab:*", "Recipe/*", "*", "mark:*"], nil),
        (["NoSuchScreen", "*"], nil),
    ]

    @Test func duckDBRunningFunnelSQLAgreesWithNavlog() throws {
        let dir = try TemporaryDirectory()
        let generated = navlog("generate", "--sessions", "400", "--seed", "11", "--interleave", "--output", dir.file("s.ndjson"))
        #expect(generated.status == 0, "\(generated.stderr)")
        let exported = navlog("export", "screens", dir.file("s.ndjson"), "--with-marks")
        #expect(exported.status == 0, "\(exported.stderr)")
        let csv = try dir.file("steps.csv", exported.stdout)
        for funnel in Self.funnels {
            var args = ["funnel", dir.file("s.ndjson"), "--format", "csv"]
            var sqlArgs = [csv]
            for step in funnel.steps {
                args += ["--step", step]
                sqlArgs += ["--step", step]
            }
            if let ms = funnel.withinMs {
                args += ["--within", "\(ms)ms"]
                sqlArgs += ["--within-ms", "\(ms)"]
            }
            let ours = run(navlogBinary(), args)
            let theirs = run(Self.runner, sqlArgs)
            #expect(ours.status == 0, "\(ours.stderr)")
            #expect(theirs.status == 0, "tools/duckdb-funnel failed (tools/setup --test installs duckdb): \(theirs.stderr)")
            #expect(ours.stdout == theirs.stdout, "\(funnel.steps) within \(funnel.withinMs.map(String.init) ?? "-")")
            // Not a vacuous agreement: most funnels reach their first step.
            if funnel.steps[0] != "NoSuchScreen" { #expect(!ours.stdout.contains("\n1,\(funnel.steps[0]),0,")) }
        }
    }

    @Test("With no session at all: the steps reached by none, and no segment with --by, as navlog prints them")
    func noSessions() throws {
        let dir = try TemporaryDirectory()
        let empty = try dir.file("empty.ndjson", "")
        let csv = try dir.file("steps.csv", navlog("export", "screens", empty, "--with-marks").stdout)
        for by in [[], ["--by", "app.version"]] {
            let ours = run(navlogBinary(), ["funnel", empty, "--step", "tab:*", "--step", "mark:*", "--format", "csv"] + by)
            let theirs = run(Self.runner, [csv, "--step", "tab:*", "--step", "mark:*"] + by)
            #expect(theirs.status == 0, "\(theirs.stderr)")
            #expect(ours.stdout == theirs.stdout, "\(by)")
        }
        #expect(run(Self.runner, [csv, "--step", "tab:*", "--step", "mark:*"]).stdout.hasSuffix("\n1,tab:*,0,,,\n2,mark:*,0,,,\n"))
    }

    @Test func theSQLIsTheOneTheToolFillsIn() throws {
        // The runner only fills in the parts marked EDIT; the rest is tools/funnel.sql as committed.
        let sql = try String(contentsOfFile: repositoryRoot.appendingPathComponent("tools/funnel.sql").path, encoding: .utf8)
        let filled = run(Self.runner, ["x.csv", "--step", "tab:*", "--step", "Recipe/*", "--step", "mark:purchase", "--print-sql"])
        #expect(filled.status == 0)
        #expect(filled.stdout == sql)
    }
}
