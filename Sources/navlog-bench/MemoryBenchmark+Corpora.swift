#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogStore

/// `navlog-bench memory --corpus A,B,…|all`: peak RSS of every command on
/// the store benchmark's corpora (A–D, A′–D′, E), against the same 256 MiB
/// target. Each corpus is ingested into a fresh store in `--work`, then each
/// command that reads the whole store runs on it, and those on one or two
/// of its sessions; last, its screen projection is deleted and `reindex`
/// writes it again (its heaviest case). Whole `navlog` processes, one run each.
extension MemoryBenchmark {
    static func runOnCorpora(_ list: String, options: BenchmarkOptions, navlog: String, work: String) throws {
        let corpora = try StoreCorpus.named(list == "all" ? nil : list, fallback: StoreCorpus.all)
        let tmp = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        let corpusDirectory = options.string("corpora") ?? tmp + "/navlog-bench-corpora"
        mkdir(corpusDirectory, 0o755)
        print("memory benchmark, every command on the store benchmark's corpora · \(Machine.description) · \(navlog) "
              + "· target: peak RSS ≤ \(mebibytes(target)) · one run each; the one-session column is the largest of "
              + "state, replay, cat --session, diff and bisect of two sessions")
        let columns = ["ingest", "verify", "sessions", "export events", "export screens", "export screens --with-marks",
                       "funnel, 3 steps", "funnel, 5 steps", "paths", "one session", "reindex (rebuilding)"]
        var table = Table(["corpus", "events"] + columns + ["largest", "target"])
        for corpus in corpora {
            let input = try corpus.path(in: corpusDirectory, navlog: navlog)
            let store = work + "/memory-" + corpus.fileName.replacing(".ndjson", with: "")
            removeRecursively(store)
            print("measuring \(corpus.name) (\(corpus.shape)) …")
            var peaks: [Int] = []
            func measure(_ arguments: [String], stdout: String = "/dev/null", answers: Set<Int32> = [0]) throws {
                let run = try ChildProcess.run(navlog, arguments, stdoutPath: stdout)
                guard answers.contains(run.status) else {
                    throw BenchmarkFailure("navlog \(arguments.joined(separator: " ")) exited with \(run.status)")
                }
                peaks.append(run.peakRSS)
            }
            try measure(["ingest", input, "--store", store])
            try measure(["verify", store])
            let listing = work + "/memory-sessions.tsv"
            try measure(["sessions", store], stdout: listing)
            try measure(["export", "events", store])
            try measure(["export", "screens", store])
            try measure(["export", "screens", store, "--with-marks"])
            // The analytics benchmark's questions: the 3- and 5-step funnels and paths.
            for question in AnalyticsQuestion.all { try measure(question.navlogArguments(store)) }
            let (a, b) = try twoSessions(listing)
            let sessionStart = peaks.count
            try measure(["state", store, "--session", a, "--at", "3"])
            try measure(["replay", store, "--session", a])
            try measure(["cat", store, "--session", a])
            try measure(["diff", store, store, "--session-a", a, "--session-b", b], answers: [0, 1])
            try measure(["bisect", store, store, "--session-a", a, "--session-b", b], answers: [0, 1])
            let oneSession = peaks[sessionStart...].max()!
            peaks.removeSubrange(sessionStart...)
            peaks.append(oneSession)
            for name in (try? DirectoryListing.names(in: store)) ?? [] where name.hasSuffix(".views") { unlink(store + "/" + name) }
            try measure(["reindex", store])
            removeRecursively(store)
            unlink(listing)
            let largest = peaks.max()!
            table.add([corpus.name, "\(try StoreBenchmark.lineCount(input))"] + peaks.map(mebibytes)
                      + [mebibytes(largest), largest <= target ? "met" : "missed"])
        }
        table.print()
    }

    /// The first two session ids of `navlog sessions` output (a header, then a tab-separated row a session).
    private static func twoSessions(_ listing: String) throws(BenchmarkFailure) -> (String, String) {
        guard let bytes = try? WholeFile.read(listing) else { throw BenchmarkFailure("cannot read \(listing)") }
        let text = String(decoding: bytes, as: UTF8.self)
        let ids = text.split(separator: "\n").dropFirst().prefix(2).map { String($0.prefix { $0 != "\t" }) }
        guard ids.count == 2 else { throw BenchmarkFailure("\(listing) lists fewer than two sessions") }
        return (ids[0], ids[1])
    }
}
