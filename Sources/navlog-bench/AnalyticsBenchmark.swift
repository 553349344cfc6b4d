import NavLogCore
import NavLogSample
import NavLogStore
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog-bench analytics [--sessions N] [--mean-events M] [--runs R] [--work DIR]`
///
/// On a store of generated sessions (default 10,000 sessions, about 1.1M events):
/// - `navlog funnel STORE` (3 steps) against DuckDB running `tools/funnel.sql`
///   over `navlog export screens --with-marks` CSV (the duckdb Python module,
///   via `tools/duckdb-funnel`; DuckDB's time includes reading the CSV), both
///   as whole processes, and DuckDB's in-process time without Python's start;
/// - export throughput (events/s) and peak RSS of `navlog export events` and
///   `export screens` on a store a tenth the size and on the full store.
///
/// Run from the repository root after `swift build -c release`
/// (`.build/release/navlog-bench analytics`).
func runAnalyticsBenchmark(_ arguments: [String]) {
    var sessions = 10_000, mean = 110, runs = 5
    var work: String?
    var i = 0
    while i < arguments.count {
        let value = i + 1 < arguments.count ? arguments[i + 1] : ""
        switch arguments[i] {
        case "--sessions": sessions = Int(value) ?? sessions
        case "--mean-events": mean = Int(value) ?? mean
        case "--runs": runs = Int(value) ?? runs
        case "--work": work = value
        default:
            printError("navlog-bench analytics: unknown argument \(arguments[i]) (--sessions N, --mean-events M, --runs R, --work DIR)")
            exit(2)
        }
        i += 2
    }
    guard access("tools/funnel.sql", R_OK) == 0 else {
        printError("navlog-bench analytics: run from the repository root (tools/funnel.sql not found)")
        exit(2)
    }
    let navlog = siblingExecutable("navlog")
    let dir = try! work ?? TemporaryDirectory(keep: true).path
    print("analytics benchmark · \(machineDescription())")
    print("navlog: \(navlog) · peer: DuckDB \(pythonDuckDBVersion()) (Python module) running tools/funnel.sql · median of \(runs) runs")

    let big = BenchStore(path: dir + "/store-\(sessions)", sessions: sessions, mean: mean)
    let small = BenchStore(path: dir + "/store-\(sessions / 10)", sessions: sessions / 10, mean: mean)
    for store in [small, big] { store.ensure() }

    // Funnel: navlog vs DuckDB.
    let steps = ["tab:*", "Recipe/*", "mark:purchase"]
    let csv = dir + "/steps-\(sessions).csv"
    let exported = runProcess(navlog, ["export", "screens", big.path, "--with-marks"], stdoutPath: csv)
    precondition(exported.status == 0, "export failed")
    let navlogArgs = ["funnel", big.path, "--format", "csv"] + steps.flatMap { ["--step", $0] }
    let duckArgs = ["tools/duckdb-funnel", csv] + steps.flatMap { ["--step", $0] }
    let ours = runProcess(navlog, navlogArgs, capture: true)
    let theirs = runProcess("/usr/bin/env", ["python3"] + duckArgs, capture: true)
    let agree = ours.output == theirs.output
    print("\nfunnel (3 steps: \(steps.joined(separator: " → "))) on \(big.summary)")
    print(ours.output, terminator: "")
    print("same numbers from DuckDB: \(agree ? "yes" : "NO")")
    var navlogTimes: [Double] = [], duckTimes: [Double] = [], duckInner: [Double] = []
    var navlogCPU: [Double] = [], duckCPU: [Double] = []
    for _ in 0..<runs {
        let a = runProcess(navlog, navlogArgs, stdoutPath: "/dev/null")
        let b = runProcess("/usr/bin/env", ["python3"] + duckArgs, stdoutPath: "/dev/null")
        navlogTimes.append(a.seconds)
        navlogCPU.append(a.cpuSeconds)
        duckTimes.append(b.seconds)
        duckCPU.append(b.cpuSeconds)
        duckInner.append(duckDBQuerySeconds(csv: csv, steps: steps))
    }
    let n = median(navlogTimes), d = median(duckTimes), di = median(duckInner)
    print("navlog funnel            \(fixed(n, 3)) s  (runs: \(list(navlogTimes)))")
    print("duckdb, whole process    \(fixed(d, 3)) s  (runs: \(list(duckTimes)))")
    print("duckdb, query only       \(fixed(di, 3)) s  (read CSV + funnel.sql, no Python start; runs: \(list(duckInner)))")
    print("ratio navlog / duckdb: \(fixed(n / d, 2))× (whole process), \(fixed(n / di, 2))× (query only)")
    print("CPU seconds (user + system, median): navlog \(fixed(median(navlogCPU), 3)), duckdb whole process \(fixed(median(duckCPU), 3))")

    // Export throughput and peak memory, small vs big store.
    print("\nexport (to /dev/null), peak RSS of the navlog process")
    for kind in [["events", "--format", "csv"], ["events", "--format", "ndjson"], ["screens"]] {
        for store in [small, big] {
            var times: [Double] = []
            var rss = 0
            for _ in 0..<max(1, runs / 2 + 1) {
                let r = runProcess(navlog, ["export", kind[0], store.path] + kind.dropFirst(), stdoutPath: "/dev/null")
                times.append(r.seconds)
                rss = max(rss, r.peakRSS)
            }
            let t = median(times)
            let name = kind.joined(separator: " ")
            print("export " + name + String(repeating: " ", count: max(0, 22 - name.count))
                  + "\(store.events) events  \(fixed(t, 3)) s  \(Int(Double(store.events) / t)) events/s  peak RSS \(fixed(Double(rss) / 1_048_576, 1)) MiB")
        }
    }
    if work == nil { print("\n(store kept in \(dir); pass --work DIR to reuse it)") }
}

/// A store directory of generated sessions, written once with ``LogWriter``.
struct BenchStore {
    let path: String
    let sessions: Int
    let mean: Int
    var events: Int { (try? readCount()) ?? 0 }

    var summary: String { "\(sessions) sessions, \(events) events" }

    func ensure() {
        if access(path + "/.complete", R_OK) == 0 { return }
        mkdir(path, 0o755)
        let generator = SampleGenerator(.init(sessions: sessions, seed: 42, eventsPerSession: SampleGenerator.Options.eventsPerSession(mean: mean)))
        var total = 0
        let start = monotonicSeconds()
        for index in 0..<sessions {
            let events = Array(generator.session(at: index))
            do {
                let writer = try LogWriter(path: path + "/" + generator.sessionID(index) + ".navlog")
                try writer.append(contentsOf: events)
                try writer.close()
            } catch { fatalError("writing the store: \(error)") }
            total += events.count
        }
        if let f = fopen(path + "/.complete", "w") {
            fputs("\(total)\n", f)
            fclose(f)
        }
        print("wrote \(path) (\(sessions) sessions, \(total) events) in \(fixed(monotonicSeconds() - start, 1)) s")
    }

    private func readCount() throws -> Int {
        guard let f = fopen(path + "/.complete", "r") else { return 0 }
        defer { fclose(f) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, 64, f) != nil else { return 0 }
        return Int(cString(buffer).trimmingCharacters(in: " \n")) ?? 0
    }
}

/// What a child process did.
struct ProcessResult {
    var status: Int32
    var seconds: Double
    var peakRSS: Int
    var output: String
    /// User + system CPU seconds of the process.
    var cpuSeconds: Double = 0
}

/// Runs `executable` with `arguments`, stdout to a file (or captured), and
/// measures its wall time and peak RSS (wait4's rusage).
func runProcess(_ executable: String, _ arguments: [String], stdoutPath: String? = nil, capture: Bool = false) -> ProcessResult {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    let captureDirectory = capture ? try! TemporaryDirectory() : nil
    let capturePath = captureDirectory?.file("out")
    if let target = stdoutPath ?? capturePath {
        posix_spawn_file_actions_addopen(&actions, 1, target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    }
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    var pid: pid_t = 0
    let start = monotonicSeconds()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    precondition(spawned == 0, "cannot run \(executable)")
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let seconds = monotonicSeconds() - start
    var output = ""
    if let capturePath, let f = fopen(capturePath, "r") {
        var buffer = [CChar](repeating: 0, count: 1 << 16)
        while fgets(&buffer, Int32(buffer.count), f) != nil { output += cString(buffer) }
        fclose(f)
    }
    captureDirectory?.remove()
    let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    return ProcessResult(status: (status >> 8) & 0xFF, seconds: seconds, peakRSS: Int(usage.ru_maxrss) * 1024, output: output, cpuSeconds: cpu)
}

/// DuckDB's own time for reading the CSV and running tools/funnel.sql,
/// measured inside Python after `import duckdb`.
func duckDBQuerySeconds(csv: String, steps: [String]) -> Double {
    let script = """
        import sys, time, types, duckdb
        df = types.ModuleType('df'); df.__file__ = 'tools/duckdb-funnel'; exec(open('tools/duckdb-funnel').read(), df.__dict__)
        sql = df.sql_for(sys.argv[2:], None)
        con = duckdb.connect()
        con.execute('PRAGMA threads=2')
        start = time.monotonic()
        con.execute("CREATE VIEW screens AS SELECT * FROM read_csv('%s', header = true, all_varchar = true)" % sys.argv[1])
        con.execute(sql).fetchall()
        print(time.monotonic() - start)
        """
    let r = runProcess("/usr/bin/env", ["python3", "-c", script, csv] + steps, capture: true)
    return Double(r.output.trimmingCharacters(in: " \n")) ?? .nan
}

func pythonDuckDBVersion() -> String {
    let r = runProcess("/usr/bin/env", ["python3", "-c", "import duckdb; print(duckdb.__version__)"], capture: true)
    return r.status == 0 ? r.output.trimmingCharacters(in: " \n") : "(missing: python3 -m pip install duckdb)"
}

/// An executable next to this one (`.build/release/navlog`).
func siblingExecutable(_ name: String) -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return ".build/release/" + name }
    let path = cString(buffer)
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]) + "/" + name
}

/// The median of the finite values (a failed run gives NaN and is left out).
private func median(_ values: [Double]) -> Double {
    let sorted = values.filter(\.isFinite).sorted()
    guard !sorted.isEmpty else { return .nan }
    let mid = sorted.count / 2
    return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

private func list(_ values: [Double]) -> String { values.map { fixed($0, 3) }.joined(separator: " ") }

/// `v` with `digits` decimals.
private func fixed(_ v: Double, _ digits: Int) -> String {
    guard v.isFinite else { return "\(v)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let units = Int((abs(v) * scale).rounded())
    let whole = units / Int(scale), fraction = String(units % Int(scale))
    let sign = v < 0 && units != 0 ? "-" : ""
    return sign + "\(whole)" + (digits > 0 ? "." + String(repeating: "0", count: digits - fraction.count) + fraction : "")
}

extension String {
    func trimmingCharacters(in set: String) -> String {
        var s = Substring(self)
        while let c = s.first, set.contains(c) { s = s.dropFirst() }
        while let c = s.last, set.contains(c) { s = s.dropLast() }
        return String(s)
    }
}

/// The text of a NUL-terminated C buffer.
func cString(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
