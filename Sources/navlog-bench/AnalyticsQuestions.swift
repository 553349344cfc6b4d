#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One question asked of navlog and of DuckDB, whose CSV answers must be
/// byte for byte the same: `navlog funnel|paths … --format csv` beside
/// `tools/duckdb-funnel|duckdb-paths` over `export screens --with-marks`.
struct AnalyticsQuestion: Sendable {
    /// The table's title.
    let title: String
    /// A file-name-safe key.
    let key: String
    /// navlog's arguments, given what it reads.
    let navlogArguments: @Sendable (_ input: String) -> [String]
    /// The DuckDB runner in `tools/` and its arguments, given the prepared CSVs.
    let duckDBRunner: @Sendable (_ source: PreparedSource) -> (tool: String, arguments: [String])

    static let threeSteps = ["tab:*", "Recipe/*", "mark:purchase"]
    static let fiveSteps = ["tab:home", "Category/*", "Recipe/*", "Step/*", "mark:add-to-cart"]

    static let all = [
        AnalyticsQuestion(
            title: "funnel, 3 steps (\(threeSteps.joined(separator: " → ")))", key: "funnel3",
            navlogArguments: { ["funnel", $0, "--format", "csv"] + steps(threeSteps) },
            duckDBRunner: { ("duckdb-funnel", [$0.screensCSV] + steps(threeSteps)) }),
        AnalyticsQuestion(
            title: "funnel, 5 steps --within 10m --by app.version (\(fiveSteps.joined(separator: " → ")))", key: "funnel5",
            navlogArguments: { ["funnel", $0, "--format", "csv", "--within", "10m", "--by", "app.version"] + steps(fiveSteps) },
            duckDBRunner: { ("duckdb-funnel", [$0.screensCSV, "--within-ms", "600000", "--by", "app.version"] + steps(fiveSteps)) }),
        AnalyticsQuestion(
            title: "paths (the 10 most frequent transitions)", key: "paths",
            navlogArguments: { ["paths", $0, "--format", "csv", "--top", "10"] },
            duckDBRunner: { ("duckdb-paths", [$0.screensCSV, "--top", "10"]) }),
    ]

    private static func steps(_ patterns: [String]) -> [String] { patterns.flatMap { ["--step", $0] } }
}

/// What one question measured on one source.
struct QuestionFigures {
    var navlogSeconds: [Double] = []
    /// navlog's user + system CPU seconds.
    var navlogCPU: [Double] = []
    var navlogRSS = 0
    /// DuckDB's own seconds: CSV reads and queries (`--timing`).
    var duckDBSeconds: [Double] = []
    /// The DuckDB process: Python's start, `import duckdb`, CSV reads, queries.
    var duckDBProcessSeconds: [Double] = []
    /// The DuckDB process's user + system CPU seconds (Python's start included).
    var duckDBProcessCPU: [Double] = []
    var duckDBRSS = 0
    /// Whether the two CSV answers were byte for byte the same.
    var equal = false
    /// Where the two answers are kept when they differ.
    var answers: (navlog: String, duckDB: String)?
}

extension AnalyticsQuestion {
    /// Asks both once with their answers to files under `work`, compares
    /// them byte for byte (also the warm-up): the answers stay there when they differ.
    func check(_ source: PreparedSource, navlog: String, tools: String, work: String) throws(BenchmarkFailure) -> QuestionFigures {
        let ours = "\(work)/\(source.source.name)-\(key)-navlog.csv", theirs = "\(work)/\(source.source.name)-\(key)-duckdb.csv"
        var figures = QuestionFigures()
        try runNavlog(source, navlog: navlog, stdout: ours, into: &figures, timed: false)
        try runDuckDB(source, tools: tools, stdout: theirs, timing: theirs + ".seconds", into: &figures, timed: false)
        figures.equal = readBytes(ours) == readBytes(theirs)
        if figures.equal {
            unlink(ours)
            unlink(theirs)
        } else {
            figures.answers = (ours, theirs)
        }
        return figures
    }

    /// One timed run of each, answers to /dev/null.
    func time(
        _ source: PreparedSource, navlog: String, tools: String, work: String, into figures: inout QuestionFigures
    ) throws(BenchmarkFailure) {
        try runNavlog(source, navlog: navlog, stdout: "/dev/null", into: &figures, timed: true)
        try runDuckDB(source, tools: tools, stdout: "/dev/null", timing: work + "/duckdb.seconds", into: &figures, timed: true)
    }

    private func runNavlog(
        _ source: PreparedSource, navlog: String, stdout: String, into figures: inout QuestionFigures, timed: Bool
    ) throws(BenchmarkFailure) {
        let run = try ChildProcess.runChecked(navlog, navlogArguments(source.input), stdoutPath: stdout)
        if timed {
            figures.navlogSeconds.append(run.seconds)
            figures.navlogCPU.append(run.cpuSeconds)
        }
        figures.navlogRSS = max(figures.navlogRSS, run.peakRSS)
    }

    private func runDuckDB(
        _ source: PreparedSource, tools: String, stdout: String, timing: String, into figures: inout QuestionFigures, timed: Bool
    ) throws(BenchmarkFailure) {
        let (tool, arguments) = duckDBRunner(source)
        defer { unlink(timing) }
        let run = try ChildProcess.run(tools + "/" + tool, arguments + ["--timing", timing], stdoutPath: stdout)
        guard run.status == 0 else {
            throw BenchmarkFailure("tools/\(tool) exited with \(run.status) (tools/setup --test installs the duckdb Python module)")
        }
        guard let text = readTextFile(timing), let seconds = Double(text.filter { !$0.isWhitespace }) else {
            throw BenchmarkFailure("tools/\(tool) wrote no --timing seconds to \(timing)")
        }
        if timed {
            figures.duckDBSeconds.append(seconds)
            figures.duckDBProcessSeconds.append(run.seconds)
            figures.duckDBProcessCPU.append(run.cpuSeconds)
        }
        figures.duckDBRSS = max(figures.duckDBRSS, run.peakRSS)
    }
}
