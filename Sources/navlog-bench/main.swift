#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog-bench <suite> [options]`: navlog's benchmarks, each beside a named
/// peer measured in the same run. Build in release mode:
///
///     swift run -c release navlog-bench all
///     swift run -c release navlog-bench parse-fold --events 1000000 --runs 5
///
/// Each suite lives in its own `<Name>Benchmark.swift` and is listed once below.

/// The arguments after the suite's name, for suites that read their own options.
let suiteArguments = Array(CommandLine.arguments.dropFirst(2))

/// Every suite, in the order `all` runs them. Add one line per suite.
let suites: [BenchmarkSuite] = [
    ParseFoldBenchmark.suite,
    LogBenchmark.suite,
    BenchmarkSuite(name: "timetravel", summary: "ingest vs lz4 -1, bisect of two 10M-event logs vs full replay") { options in
        runTimeTravelBenchmark(runs: options.runs)
    },
    AnalyticsBenchmark.suite,
    BenchmarkSuite(name: "recorder", summary: "recorder caller cost and sustained rate beside the raw LogWriter") { _ in
        runRecorderBenchmark()
    },
    BenchmarkSuite(name: "import", summary: "import throughput of GA4 NDJSON and CSV beside ingest",
                   options: ["--records N  records of each generated export (default 1M)"]) { _ in
        ImportBenchmark.run(suiteArguments)
    },
    SegmentWriteBenchmark.suite,
    StoreLookupBenchmark.suite,
    StoreBenchmark.suite,
    ReingestBenchmark.suite,
    MemoryBenchmark.suite,
    ServeBenchmark.suite,
    ViewerBenchmark.suite,
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == ChildProcess.probeFlag { exit(ChildProcess.probeMain(Array(arguments.dropFirst()))) }
exit(BenchmarkCommand.run(arguments: arguments, suites: suites))
