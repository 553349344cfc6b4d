#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog-bench memory --work DIR [--sessions N] [--interleaved N] [--live N] [--navlog PATH]`:
/// peak RSS of `funnel` (3 steps; 5 steps with `--within` and `--by`),
/// `paths`, `export screens` and `export events` against the 256 MiB target
/// of issue 26 ("bounded memory everywhere"), as whole `navlog` processes,
/// on three corpora made once in DIR with `navlog generate` and `ingest`:
/// NDJSON of N sessions of 2–8 events one after another (default 1M), NDJSON
/// of `--interleaved` sessions of about 10 events with `--live` under way at
/// once (default 100k and 256), and a segment store of the first.
enum MemoryBenchmark {
    static let suite = BenchmarkSuite(
        name: "memory", summary: "peak RSS of funnel, paths and export over NDJSON and a store against 256 MiB",
        options: ["--work DIR (corpora made when absent) [--sessions N] [--interleaved N] [--live N] [--navlog PATH]",
                  "--corpus A,B,C,D,A',B',C',D',E|all: instead, every command on the store benchmark's corpora "
                      + "(--corpora DIR, default $TMPDIR/navlog-bench-corpora), stores in --work"]
    ) { options in
        try run(options)
    }

    /// The target: peak RSS at most this.
    static let target = 256 << 20

    static func run(_ options: BenchmarkOptions) throws {
        guard let dir = options.string("work") else { throw BenchmarkFailure("usage: navlog-bench memory --work DIR") }
        let navlog = try ChildProcess.navlogBinary(options)
        let sessions = try options.int("sessions", default: 1_000_000)
        let interleavedSessions = try options.int("interleaved", default: 100_000)
        let live = try options.int("live", default: 256)
        mkdir(dir, 0o755)
        if let corpora = options.string("corpus") { return try runOnCorpora(corpora, options: options, navlog: navlog, work: dir) }
        let sequential = "\(dir)/sequential-\(sessions).ndjson"
        let interleaved = "\(dir)/interleaved-\(interleavedSessions)-\(live).ndjson"
        let store = "\(dir)/store-\(sessions)"
        if access(sequential, F_OK) != 0 {
            _ = try ChildProcess.runChecked(navlog, ["generate", "--sessions", "\(sessions)", "--events-per-session", "2-8",
                                                    "--app-versions", "1.0,1.1,2.0", "-o", sequential])
        }
        if access(interleaved, F_OK) != 0 {
            _ = try ChildProcess.runChecked(navlog, ["generate", "--sessions", "\(interleavedSessions)", "--events-per-session", "10",
                                                    "--interleave", "--live-sessions", "\(live)", "--app-versions", "1.0,1.1,2.0",
                                                    "-o", interleaved])
        }
        if access(store, F_OK) != 0 { _ = try ChildProcess.runChecked(navlog, ["ingest", sequential, "--store", store]) }

        print("memory benchmark · \(machineDescription()) · \(navlog) · target: peak RSS ≤ \(mebibytes(target))")
        let commands: [(String, [String])] = [
            ("funnel, 3 steps", ["funnel", "--step", "tab:*", "--step", "Recipe/*", "--step", "mark:purchase", "--format", "csv"]),
            ("funnel, 5 steps --within --by", ["funnel", "--step", "tab:*", "--step", "Recipe/*", "--step", "Recipe/*",
                                               "--step", "*", "--step", "mark:purchase", "--within", "30m", "--by", "app.version",
                                               "--format", "csv"]),
            ("paths", ["paths", "--format", "csv"]),
            ("export screens", ["export", "screens"]),
            ("export events", ["export", "events"]),
        ]
        var table = Table("input", "command", "seconds", "peak RSS", "target")
        for (name, input) in [("NDJSON \(sessions) × 2–8, one after another", sequential),
                              ("NDJSON \(interleavedSessions) × ~10, \(live) under way", interleaved),
                              ("store of \(sessions) × 2–8", store)] {
            for (what, arguments) in commands {
                let run = try ChildProcess.runChecked(navlog, [arguments[0]] + (arguments[0] == "export" ? [arguments[1], input] : [input])
                                                      + arguments.dropFirst(arguments[0] == "export" ? 2 : 1))
                table.add(name, what, format(run.seconds, digits: 2), mebibytes(run.peakRSS), run.peakRSS <= target ? "met" : "missed")
            }
        }
        table.print()
    }
}
