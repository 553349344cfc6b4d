#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// `navlog-bench reingest`: a re-run made of duplicates only against the
/// first ingest of the same input (schemas/segment-store.md §8). For each
/// input, a round ingests it into a fresh store (`navlog ingest IN --store
/// S`, timed) and then ingests it again (every line already stored, timed);
/// figures are medians of `--runs` rounds, each a child process measured by
/// `wait4` (wall time, peak RSS). The inputs are made by `navlog generate`
/// (interleaved, as a collector writes them):
///
/// - `short-20k`: 20,000 sessions of 3–8 events;
/// - `short-5k`: 5,000 sessions of 3–8 events;
/// - `long-2k`: 2,000 sessions of the generator's usual length;
/// - `foreign-20k`: `short-20k` as another producer writes it: keys in
///   reverse order, and no `seq` on two lines of three.
enum ReingestBenchmark {
    static let suite = BenchmarkSuite(
        name: "reingest", summary: "re-ingest of an input already stored (all duplicates) beside its first ingest",
        options: ["--work DIR (default $TMPDIR)  --only short-20k,short-5k,long-2k,foreign-20k",
                  "--navlog PATH (default: the navlog next to navlog-bench)"]) { options in
        try run(options)
    }

    /// One input: its name and the `navlog generate` arguments that make it.
    struct Input {
        let name: String
        let generate: [String]
        /// Rewritten as another producer writes it.
        var foreign = false
    }

    static let inputs = [
        Input(name: "short-20k", generate: ["--sessions", "20000", "--events-per-session", "3-8"]),
        Input(name: "short-5k", generate: ["--sessions", "5000", "--events-per-session", "3-8"]),
        Input(name: "long-2k", generate: ["--sessions", "2000"]),
        Input(name: "foreign-20k", generate: ["--sessions", "20000", "--events-per-session", "3-8"], foreign: true),
    ]

    static func run(_ options: BenchmarkOptions) throws {
        let navlog = try ChildProcess.navlogBinary(options)
        let tmp = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        let work = (options.string("work") ?? tmp) + "/navlog-bench-reingest-\(getpid())"
        mkdir(work, 0o755)
        defer { removeRecursively(work) }
        let only = options.string("only").map { Set($0.split(separator: ",").map(String.init)) }
        print("reingest benchmark: \(Machine.description); navlog \(navlog); median of \(options.runs) rounds")
        var table = Table("input", "events", "sessions", "MB", "first ingest", "re-ingest (all duplicates)", "re-ingest / first",
                          "RSS first", "RSS re-ingest")
        for input in inputs where only?.contains(input.name) ?? true {
            let path = "\(work)/\(input.name).ndjson"
            _ = try ChildProcess.runChecked(navlog, ["generate", "--interleave", "--seed", "\(options.seed)"] + input.generate,
                                            stdoutPath: path)
            if input.foreign { try rewriteAsForeign(path) }
            let events = try StoreBenchmark.lineCount(path)
            let store = "\(work)/store"
            var first: [Double] = [], again: [Double] = []
            var firstRSS = 0, againRSS = 0
            for _ in 0..<options.runs {
                removeRecursively(store)
                sync()
                let a = try ChildProcess.runChecked(navlog, ["ingest", path, "--store", store])
                let b = try ChildProcess.runChecked(navlog, ["ingest", path, "--store", store], stdoutPath: "\(work)/again.txt")
                guard let said = readTextFile("\(work)/again.txt"), said.contains("stored 0 events"),
                      said.contains("\(events) events already stored") else {
                    throw BenchmarkFailure("reingest: the second ingest of \(input.name) stored something: \(readTextFile("\(work)/again.txt") ?? "")")
                }
                first.append(a.seconds)
                again.append(b.seconds)
                firstRSS = max(firstRSS, a.peakRSS)
                againRSS = max(againRSS, b.peakRSS)
            }
            let (f, g) = (Timings.median(first), Timings.median(again))
            let sessions = input.generate[1]
            table.add(input.name, "\(events)", sessions, format(Double(fileSize(path)) / 1e6, digits: 0),
                      format(f, digits: 2) + " s", format(g, digits: 2) + " s", format(g / f, digits: 2),
                      "\(firstRSS >> 20) MiB", "\(againRSS >> 20) MiB")
            print("  \(input.name): first \(StoreBenchmark.seconds(first)) re-ingest \(StoreBenchmark.seconds(again))")
            unlink(path)
        }
        removeRecursively("\(work)/store")
        table.print()
        print("wall time of `navlog ingest IN --store S` into a fresh store, then of the same command again (every line a duplicate)")
    }

    /// Rewrites a generated NDJSON file as another producer writes it: each
    /// object's keys in reverse order, and `seq` left out of two lines of three
    /// (numbered within the input, they get the seqs they had).
    static func rewriteAsForeign(_ path: String) throws(BenchmarkFailure) {
        guard let text = readTextFile(path) else { throw BenchmarkFailure("cannot read \(path)") }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for (n, line) in text.split(separator: "\n").enumerated() {
            let parsed = Array(line.utf8).withUnsafeBytes { try? JSONValue.parse($0) }
            guard case .object(let members)? = parsed else {
                throw BenchmarkFailure("not a JSON object in \(path): \(line.prefix(80))")
            }
            out += "{" + members.keys.sorted(by: >).filter { $0 != "seq" || n % 3 == 0 }
                .map { JSONValue.string($0).canonicalText + ":" + members[$0]!.canonicalText }.joined(separator: ",") + "}\n"
        }
        guard let file = fopen(path, "w") else { throw BenchmarkFailure("cannot write \(path)") }
        fputs(out, file)
        fclose(file)
    }
}
