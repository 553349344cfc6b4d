import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog-bench serve`: the collector (`navlog serve`, release build) on
/// 127.0.0.1 port 0 with a fresh store, loaded by this process over
/// loopback (``HTTPConnection``: blocking sockets, one thread a connection):
///
/// - sustained: `--connections` (256) keep-alive connections upload gzip
///   batches of one session's events (templates of `--sessions` (10,000)
///   sessions of 50 events from `navlog generate`; each round of a template
///   under a fresh session id) for `--seconds` (60); events/s, request
///   latency, the server's peak RSS, beside `navlog ingest` of one round;
/// - kill: a few connections upload while the server is SIGKILLed
///   `--kills` (50) times and restarted on the same store; every session
///   answered 200 must be whole in the store, which must verify;
/// - keys, bomb, slow: see ``ServeFaults``.
///
/// Every loop is bounded in count and in time.
enum ServeBenchmark {
    static let suite = BenchmarkSuite(
        name: "serve", summary: "navlog serve: sustained gzip upload beside ingest, SIGKILL under load, keys, gzip bomb, slow clients",
        options: ["--connections N (256) --sessions N (10000) --seconds S (60) --kills N (50) --slow-clients N (1000)",
                  "--slow-seconds S (40) --bomb-mib N (1024) --only sustained,kill,keys,bomb,slow --work DIR",
                  "--runs N (1 unless given: sustained rounds, medians) --navlog PATH"]) { options in
        try run(options)
    }

    static func run(_ options: BenchmarkOptions) throws {
        signal(SIGPIPE, SIG_IGN)
        let navlog = try ChildProcess.navlogBinary(options)
        let tmp = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        let work = (options.string("work") ?? tmp) + "/navlog-bench-serve-\(getpid())"
        mkdir(work, 0o755)
        defer { removeRecursively(work) }
        let only = options.string("only").map { Set($0.split(separator: ",").map(String.init)) }
        func wanted(_ part: String) -> Bool { only?.contains(part) ?? true }
        let sessions = try options.int("sessions", default: 10_000)
        let templates = "\(work)/sessions.ndjson"
        _ = try ChildProcess.runChecked(navlog, ["generate", "--seed", "\(options.seed)", "--sessions", "\(max(1, sessions))",
                                                 "--events-per-session", "50"], stdoutPath: templates)
        let batches = try SessionBatches(ndjson: templates)
        let events = batches.counts.reduce(0, +)
        print("serve benchmark: \(Machine.description); navlog \(navlog); \(batches.count) template sessions, \(events) events")
        let context = Context(navlog: navlog, work: work, batches: batches, options: options)
        if wanted("sustained") { try sustained(context, templates: templates, events: events) }
        if wanted("kill") { try ServeFaults.kills(context) }
        if wanted("keys") { try ServeFaults.keys(context) }
        if wanted("bomb") { try ServeFaults.bomb(context) }
        if wanted("slow") { try ServeFaults.slowClients(context) }
    }

    /// What every part needs.
    struct Context {
        let navlog: String
        let work: String
        let batches: SessionBatches
        let options: BenchmarkOptions

        /// A fresh store path under the work directory.
        func freshStore(_ name: String) -> String {
            let path = "\(work)/\(name)"
            removeRecursively(path)
            return path
        }
    }

    /// One sustained run's figures.
    struct Sustained {
        var eventsPerSecond: Double
        var p50: Double
        var p99: Double
        var peakRSS: Int
        var requests: Int
        var refused: [Int: Int]
        var errors: Int
        var exitStatus: Int32
    }

    static func sustained(_ context: Context, templates: String, events: Int) throws {
        let connections = max(1, try context.options.int("connections", default: 256))
        let seconds = Double(try context.options.int("seconds", default: 60))
        let runs = context.options.string("runs") == nil ? 1 : context.options.runs
        var figures: [Sustained] = []
        for run in 0..<runs {
            let figure = try sustainedRun(context, connections: connections, seconds: seconds)
            print("  sustained run \(run + 1): \(rate(figure.eventsPerSecond)) events, p50 \(milliseconds(figure.p50)), "
                  + "p99 \(milliseconds(figure.p99)), peak RSS \(mebibytes(figure.peakRSS)), \(figure.requests) requests, "
                  + "not 200: \(figure.refused), errors \(figure.errors), exit \(figure.exitStatus)")
            figures.append(figure)
        }
        var ingestSeconds: [Double] = []
        for _ in 0..<runs {
            let store = context.freshStore("ingest-store")
            ingestSeconds.append(try ChildProcess.runChecked(context.navlog, ["ingest", templates, "--store", store]).seconds)
        }
        let ingestRate = Double(events) / Timings.median(ingestSeconds)
        let rateMedian = Timings.median(figures.map(\.eventsPerSecond))
        let p99 = Timings.median(figures.map(\.p99))
        let rss = figures.map(\.peakRSS).max() ?? 0
        var table = Table("figure", "measured", "target", "")
        table.add("upload events/s (\(connections) connections, gzip batches of 50)", rate(rateMedian), "≥ 100k/s",
                  rateMedian >= 100_000 ? "met" : "missed")
        table.add("request latency p50", milliseconds(Timings.median(figures.map(\.p50))), "", "")
        table.add("request latency p99", milliseconds(p99), "≤ 100 ms", p99 <= 0.1 ? "met" : "missed")
        table.add("server peak RSS (VmHWM)", mebibytes(rss), "≤ 256 MiB", rss <= 256 << 20 ? "met" : "missed")
        table.add("`navlog ingest` of \(events) of the same events", rate(ingestRate), "", "")
        table.print()
        print("median of \(runs) run(s) of \(Int(seconds)) s; ingest: wall time of `navlog ingest FILE --store S` into a fresh store")
    }

    private static func sustainedRun(_ context: Context, connections: Int, seconds: Double) throws -> Sustained {
        let store = context.freshStore("sustained-store")
        let server = try NavlogServe.bench(navlog: context.navlog, store: store, log: "\(context.work)/sustained.log")
        let batches = context.batches
        let port = server.port
        let start = monotonicSeconds()
        let deadline = start + seconds
        let tally = runLoadThreads(connections) { i in
            var tally = LoadTally()
            var connection: HTTPConnection?
            var slot = i, round = 0
            while monotonicSeconds() < deadline, tally.requests < 10_000_000 {
                if slot >= batches.count { slot = i; round += 1 }
                let body = batches.gzip(slot, as: "s\(slot)-r\(round)")
                guard let response = tally.upload(body, port: port, over: &connection) else { continue }
                if response.status == 200 {
                    tally.stored += storedCount(response.text) ?? 0
                    slot += connections
                } else {
                    usleep(10_000)
                }
            }
            return tally
        }
        let elapsed = monotonicSeconds() - start
        let peak = server.peakRSS
        let status = server.stop(SIGTERM)
        return Sustained(eventsPerSecond: Double(tally.stored) / elapsed, p50: percentile(tally.latencies, 0.5),
                         p99: percentile(tally.latencies, 0.99), peakRSS: peak, requests: tally.requests,
                         refused: tally.statuses.filter { $0.key != 200 }, errors: tally.errors, exitStatus: status)
    }
}
