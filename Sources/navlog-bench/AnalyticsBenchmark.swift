// navlog-bench/: The benchmarks, one `<Name>Benchmark.swift` a suite, listed in `main.swift`; child processes timed, tables printed (docs/performance.md).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog-bench analytics`: the analytics benchmark. On corpora A–D, A′–D′
/// and E of the store benchmark stored with `navlog ingest` (with the
/// screen projection ingest keeps), and on N, an NDJSON of 1M
/// short sessions read as it is, times as whole processes (wall time, peak
/// RSS from `wait4`), round-robin in the same run:
/// - `navlog funnel` (3 steps; 5 steps with `--within` and `--by`) and
///   `navlog paths`, beside DuckDB (the Python module) answering the same
///   question in plain SQL over `navlog export screens --with-marks` CSV
///   (`tools/duckdb-funnel` with tools/funnel.sql, `tools/duckdb-paths` with
///   tools/paths.sql), DuckDB's time its CSV reads and queries (`--timing`);
///   the two CSV answers are compared byte for byte;
/// - `navlog export screens` to /dev/null: rows per second and peak RSS.
/// Each figure is set against its target. Different answers print
/// DIFFERENT and make the run fail (exit 1) after the tables.
enum AnalyticsBenchmark {
    static let suite = BenchmarkSuite(
        name: "analytics",
        summary: "funnel, paths vs DuckDB over export screens CSV; export screens rows/s; peak RSS",
        options: ["--corpus A,B,C,D,A',B',C',D',E,N (default all; N is the NDJSON of 1M short sessions, read directly)",
                  "--corpora DIR (generated corpora, kept; default $TMPDIR/navlog-bench-corpora)",
                  "--work DIR (stores and CSVs, kept; default $TMPDIR/navlog-bench-analytics)",
                  "--direct (read each chosen corpus's NDJSON as it is, target ≤ 1.0× DuckDB, instead of its store)",
                  "--no-projection (time the stores without their screen projection: the events path; default: as ingest left them)",
                  "--navlog PATH (default: the navlog next to navlog-bench); run from the repository root (tools/)"]) { options in
        try run(options)
    }

    /// The targets (navlog ÷ DuckDB: ``AnalyticsSource/ratioTarget``; peak RSS: the store benchmark's, ``StoreBenchmark/rssTarget``).
    static let exportRowsTarget = 5e6
    static let rssTarget = StoreBenchmark.rssTarget

    static func run(_ options: BenchmarkOptions) throws {
        let navlog = try ChildProcess.navlogBinary(options)
        let tools = try toolsDirectory()
        let sources = try AnalyticsSource.chosen(options.string("corpus"), direct: options.flag("direct"))
        let tmp = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        let corpora = options.string("corpora") ?? tmp + "/navlog-bench-corpora"
        let work = options.string("work") ?? tmp + "/navlog-bench-analytics"
        mkdir(corpora, 0o755)
        mkdir(work, 0o755)
        print("analytics benchmark: \(Machine.description); navlog \(navlog); peer DuckDB \(try duckDBVersion(work: work)) (Python module, 2 threads) "
              + "over `navlog export screens --with-marks` CSV; \(options.runs) timed rounds after a checking round")
        let projection = !options.flag("no-projection")
        print("preparing (corpora in \(corpora), stores and CSVs in \(work)); the stores "
              + (projection ? "with the screen projection ingest kept" : "WITHOUT their screen projection (--no-projection)") + ":")
        var prepared: [PreparedSource] = []
        for source in sources {
            prepared.append(try source.prepare(navlog: navlog, corpora: corpora, work: work, tools: tools, projection: projection))
        }
        var figures = [[QuestionFigures]](repeating: [], count: prepared.count)
        var exports = [ExportFigures](repeating: ExportFigures(), count: prepared.count)
        for (k, source) in prepared.enumerated() {
            print("measuring \(source.source.name) …")
            for question in AnalyticsQuestion.all {
                figures[k].append(try question.check(source, navlog: navlog, tools: tools, work: work))
            }
            for _ in 0..<options.runs {
                for (q, question) in AnalyticsQuestion.all.enumerated() {
                    try question.time(source, navlog: navlog, tools: tools, work: work, into: &figures[k][q])
                }
                let export = try ChildProcess.runChecked(navlog, ["export", "screens", source.input])
                exports[k].seconds.append(export.seconds)
                exports[k].cpu.append(export.cpuSeconds)
                exports[k].peakRSS = max(exports[k].peakRSS, export.peakRSS)
            }
        }
        printSources(prepared)
        for (q, question) in AnalyticsQuestion.all.enumerated() {
            printQuestion(question, prepared, figures.map { $0[q] })
        }
        printExports(prepared, exports)
        try failOnDifferences(prepared, figures)
    }

    /// What `export screens` measured on one source.
    struct ExportFigures {
        var seconds: [Double] = []
        /// User + system CPU seconds.
        var cpu: [Double] = []
        var peakRSS = 0
    }

    static func printSources(_ prepared: [PreparedSource]) {
        print("\nSources (events and rows of the corpus; store as `du` after `navlog ingest`, its screen projection apart):\n")
        var table = Table("corpus", "what", "events", "screen views", "store", "of which projection", "store layout")
        for p in prepared {
            table.add(p.source.name, p.source.shape, "\(p.events)", "\(p.screenRows)",
                      p.source.stored ? megabytes(p.storeBytes) : "–", p.source.stored ? megabytes(p.projectionBytes) : "–", p.layout)
        }
        table.print()
    }

    static func printQuestion(_ question: AnalyticsQuestion, _ prepared: [PreparedSource], _ figures: [QuestionFigures]) {
        print("\(question.title): navlog beside DuckDB, medians")
        print("(DuckDB: its CSV reads and queries; its whole process, Python's start included, beside; "
              + "CPU: user + system seconds of the process; target navlog ÷ DuckDB ≤ 0.5 for a store, ≤ 1.0 for NDJSON read directly)\n")
        var table = Table("corpus", "navlog", "peak RSS (≤ \(rssTarget >> 20) MiB)", "DuckDB", "DuckDB process",
                          "navlog ÷ DuckDB (≤ 0.5 store, ≤ 1.0 NDJSON)", "DuckDB peak RSS", "CPU navlog", "CPU DuckDB process", "answers")
        for (p, f) in zip(prepared, figures) {
            let ours = Timings.median(f.navlogSeconds), theirs = Timings.median(f.duckDBSeconds)
            table.add(p.source.name, seconds(ours), StoreBenchmark.rss(f.navlogRSS), seconds(theirs),
                      seconds(Timings.median(f.duckDBProcessSeconds)),
                      StoreBenchmark.against(ours / theirs, p.source.ratioTarget, atLeast: false),
                      mebibytes(f.duckDBRSS), seconds(Timings.median(f.navlogCPU)), seconds(Timings.median(f.duckDBProcessCPU)),
                      f.equal ? "EQUAL" : "DIFFERENT")
        }
        table.print()
    }

    static func printExports(_ prepared: [PreparedSource], _ exports: [ExportFigures]) {
        print("export screens (to /dev/null): rows per second of wall time, medians\n")
        var table = Table("corpus", "rows", "time", "rows/s (≥ \(rate(exportRowsTarget)))", "peak RSS (≤ \(rssTarget >> 20) MiB)", "CPU")
        for (p, e) in zip(prepared, exports) {
            let t = Timings.median(e.seconds), perSecond = Double(p.screenRows) / t
            table.add(p.source.name, "\(p.screenRows)", seconds(t),
                      rate(perSecond) + (perSecond >= exportRowsTarget ? " met" : " missed"), StoreBenchmark.rss(e.peakRSS),
                      seconds(Timings.median(e.cpu)))
        }
        table.print()
    }

    /// Prints each pair of different answers and fails the run.
    static func failOnDifferences(_ prepared: [PreparedSource], _ figures: [[QuestionFigures]]) throws(BenchmarkFailure) {
        var different: [String] = []
        for (p, row) in zip(prepared, figures) {
            for (question, f) in zip(AnalyticsQuestion.all, row) where !f.equal {
                let location = f.answers.map { "navlog's answer in \($0.navlog), DuckDB's in \($0.duckDB)" } ?? ""
                print("DIFFERENT: \(p.source.name), \(question.key): \(location)")
                different.append("\(p.source.name) \(question.key)")
            }
        }
        if !different.isEmpty {
            throw BenchmarkFailure("DIFFERENT answers from navlog and DuckDB: \(different.joined(separator: ", "))")
        }
    }

    static func seconds(_ value: Double) -> String { format(value, digits: 3) + " s" }

    /// `tools/` of the repository this is run from, as an absolute path.
    static func toolsDirectory() throws(BenchmarkFailure) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getcwd(&buffer, buffer.count) != nil else { throw BenchmarkFailure("cannot read the working directory") }
        let tools = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/tools"
        for name in ["funnel.sql", "paths.sql", "duckdb-funnel", "duckdb-paths"] where access(tools + "/" + name, R_OK) != 0 {
            throw BenchmarkFailure("run from the repository root (\(tools)/\(name) not found)")
        }
        return tools
    }

    /// The duckdb Python module's version, or a failure saying how to install it.
    static func duckDBVersion(work: String) throws(BenchmarkFailure) -> String {
        let out = work + "/duckdb.version"
        defer { unlink(out) }
        let run = try ChildProcess.run("/usr/bin/env", ["python3", "-c", "import duckdb; print(duckdb.__version__)"], stdoutPath: out)
        guard run.status == 0, let text = readTextFile(out) else {
            throw BenchmarkFailure("needs python3 with the duckdb module (tools/setup --test, or python3 -m pip install duckdb)")
        }
        return text.filter { !$0.isNewline }
    }
}
