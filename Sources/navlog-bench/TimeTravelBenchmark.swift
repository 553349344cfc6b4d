import NavLogCore
import NavLogSample
import NavLogStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog-bench timetravel`: ingest of ≥ 1M interleaved events beside
/// `lz4 -1` on the same bytes, and `navlog bisect` of two 10M-event logs that
/// part near the end beside a full replay of both (issue 4).
///
/// Files are generated once into `$TMPDIR/navlog-bench-timetravel` (or
/// `/tmp/…`) and reused. Environment: `TT_INGEST_EVENTS` (default 1,000,000),
/// `TT_BISECT_EVENTS` (default 10,000,000), `TT_RUNS` (default: `--runs`, 5); 0 events skips a part.
func runTimeTravelBenchmark(runs optionRuns: Int) {
    let env = { (name: String, fallback: Int) -> Int in getenv(name).flatMap { Int(String(cString: $0)) } ?? fallback }
    let ingestEvents = env("TT_INGEST_EVENTS", 1_000_000)
    let bisectEvents = env("TT_BISECT_EVENTS", 10_000_000)
    let runs = env("TT_RUNS", optionRuns)
    let base = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/navlog-bench-timetravel"
    mkdir(base, 0o755)
    print("machine: \(machineDescription())")
    print("runs: \(runs) of each (TT_RUNS, else --runs)")
    if ingestEvents > 0 { benchmarkIngest(events: ingestEvents, runs: runs, directory: base) }
    if bisectEvents > 0 { benchmarkBisect(events: bisectEvents, runs: runs, directory: base) }
}

// MARK: Ingest

private func benchmarkIngest(events count: Int, runs: Int, directory: String) {
    let input = directory + "/interleaved-\(count).ndjson"
    if !fileExists(input) {
        let sessions = max(count / 1500, 1)
        let generator = SampleGenerator(.init(sessions: sessions, seed: 42, eventsPerSession: 1000...3000, interleave: true))
        let out = fopen(input + ".part", "w")!
        var writer = CanonicalWriter(capacity: 1 << 20)
        var n = 0
        for event in generator.events() {
            writer.write(event)
            writer.bytes.append(0x0A)
            n += 1
            if writer.bytes.count > 1 << 20 { fwrite(writer.bytes, 1, writer.bytes.count, out); writer.reset() }
            if n >= count { break }
        }
        fwrite(writer.bytes, 1, writer.bytes.count, out)
        fclose(out)
        rename(input + ".part", input)
    }
    let bytes = fileSize(input)
    var lines = 0
    var sessions = 0
    // Round-robin with lz4 (a warm-up round first), each ingest into a store
    // of its own made beforehand, so that removing the last one is not timed.
    var round = 0
    var ingestCPU = 0.0, lz4CPU = 0.0
    let rounds = runs > 0 ? runs + 1 : 1
    for i in 0..<rounds { removeTree(directory + "/store-\(i)") }
    let timings = try! measureInterleaved(runs: runs, [
        {
            let before = cpuSeconds(selfWho)
            let ingester = StoreIngester(store: try! SegmentStore.create(at: directory + "/store-\(round)"))
            let report = try! ingester.ingest(paths: [input], onReject: { print("rejected: \($0)") })
            lines = report.stored
            sessions = report.sessions
            round += 1
            if round > 1 || runs == 0 { ingestCPU += cpuSeconds(selfWho) - before }
        },
        {
            let before = cpuSeconds(childrenWho)
            _ = runProcess("/usr/bin/env", ["lz4", "-1", "-q", "-f", "-c", input], stdoutTo: "/dev/null")
            if round > 1 || runs == 0 { lz4CPU += cpuSeconds(childrenWho) - before }
        },
    ])
    ingestCPU /= Double(max(runs, 1))
    lz4CPU /= Double(max(runs, 1))
    let ingest = (median: timings[0].median, all: timings[0].seconds)
    let lz4 = (median: timings[1].median, all: timings[1].seconds)
    let storeBytes = directoryBytes(directory + "/store-0")
    for i in 0..<rounds { removeTree(directory + "/store-\(i)") }
    let ingestRate = Double(lines) / ingest.median, lz4Rate = Double(lines) / lz4.median
    print("ingest (one validating thread, one writing): \(lines) events of \(sessions) sessions, \(fixed(Double(bytes) / 1e6, 1)) MB NDJSON")
    print("  navlog ingest   median \(fixed(ingest.median, 3)) s  (\(fixed(ingestRate, 0)) events/s, "
          + "\(fixed(Double(bytes) / ingest.median / 1e6, 0)) MB/s)  runs \(format(ingest.all))")
    print("  lz4 -1          median \(fixed(lz4.median, 3)) s  (\(fixed(lz4Rate, 0)) events/s, "
          + "\(fixed(Double(bytes) / lz4.median / 1e6, 0)) MB/s)  runs \(format(lz4.all))")
    print("  CPU time (user + sys) per run: navlog ingest \(fixed(ingestCPU, 3)) s (both threads), lz4 -1 \(fixed(lz4CPU, 3)) s; "
          + "ratio \(fixed(lz4CPU / ingestCPU, 2))")
    print("  ratio to lz4 -1 (speed): \(fixed(lz4.median / ingest.median, 2))   store \(fixed(Double(storeBytes) / 1e6, 1)) MB "
          + "(\(fixed(Double(storeBytes) / Double(bytes), 3)) of the NDJSON)")
    print("  peak RSS so far: \(peakRSSBytes() / (1 << 20)) MiB")
}

// MARK: Bisect

private func benchmarkBisect(events count: Int, runs: Int, directory: String) {
    let a = directory + "/bisect-a-\(count).navlog", b = directory + "/bisect-b-\(count).navlog"
    let divergeAt = count - 1000   // position (1-based) where B differs
    if !fileExists(a) || !fileExists(b) {
        unlink(a); unlink(b)
        let generator = SampleGenerator(.init(sessions: 1, seed: 7, eventsPerSession: count...count))
        let writerA = try! LogWriter(path: a + ".part"), writerB = try! LogWriter(path: b + ".part")
        var position = 0
        var batchA: [Event] = [], batchB: [Event] = []
        for event in generator.session(at: 0) {
            position += 1
            var other = event
            if position == divergeAt {
                other.kind = .stackPush(stack: "bench", value: RouteValue(type: "Elsewhere"))
            }
            batchA.append(event)
            batchB.append(other)
            if batchA.count == 4096 {
                try! writerA.append(contentsOf: batchA)
                try! writerB.append(contentsOf: batchB)
                batchA.removeAll(keepingCapacity: true)
                batchB.removeAll(keepingCapacity: true)
            }
        }
        if !batchA.isEmpty { try! writerA.append(contentsOf: batchA); try! writerB.append(contentsOf: batchB) }
        try! writerA.close()
        try! writerB.close()
        rename(a + ".part", a)
        rename(b + ".part", b)
    }
    let navlog = executableDirectory() + "/navlog"
    var output = ""
    let bisect = medianSeconds(runs: runs) {
        output = runProcess(navlog, ["bisect", a, b, "--json"], stdoutTo: nil)
    }
    let blocks = field(output, #""blocksDecompressed":"#, until: "}").map { $0 + "}" } ?? "?"
    let position = field(output, #""position":"#, until: ",") ?? "?"
    let readerA = try! LogReader(path: a)
    // The peer: a full replay of both logs (every event decompressed, parsed, folded).
    var folded = 0
    let replay = medianSeconds(runs: 1) {
        for path in [a, b] {
            let reader = try! LogReader(path: path)
            var projector = NavigationProjector(session: try! reader.session() ?? "")
            let cursor = reader.cursor()
            while let event = try! cursor.next() { projector.apply(event); folded += 1 }
        }
    }
    print("bisect: two logs of \(count) events (\(readerA.blocks.count) blocks each, \(fixed(Double(fileSize(a)) / 1e6, 1)) MB each), "
          + "B differs at position \(divergeAt)")
    print("  navlog bisect (whole process)  median \(fixed(bisect.median * 1000, 1)) ms  runs \(format(bisect.all, scale: 1000)) ms  "
          + "position \(position)  blocks decompressed \(blocks)")
    print("  full replay of both            \(fixed(replay.median, 2)) s (\(folded) events)")
    print("  ratio bisect / full replay: \(fixed(bisect.median / replay.median, 5)) (\(fixed(replay.median / bisect.median, 0))x faster)")
}

// MARK: Helpers

#if canImport(Glibc)
private let selfWho = Int32(RUSAGE_SELF.rawValue), childrenWho = Int32(RUSAGE_CHILDREN.rawValue)
#else
private let selfWho = RUSAGE_SELF, childrenWho = RUSAGE_CHILDREN
#endif

/// User + system CPU seconds of this process (all threads) or of its waited-for children.
private func cpuSeconds(_ who: Int32) -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(__rusage_who_t(who), &usage)
    #else
    getrusage(who, &usage)
    #endif
    func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// The text after `key` in `json`, up to `until`.
private func field(_ json: String, _ key: String, until: Character) -> String? {
    let text = Array(json), k = Array(key)
    guard text.count >= k.count else { return nil }
    for i in 0...(text.count - k.count) where Array(text[i..<(i + k.count)]) == k {
        return String(text[(i + k.count)...].prefix { $0 != until })
    }
    return nil
}

private func format(_ times: [Double], scale: Double = 1) -> String {
    "[" + times.map { fixed($0 * scale, scale == 1 ? 3 : 1) }.joined(separator: ", ") + "]"
}

/// `x` with `digits` digits after the point.
private func fixed(_ x: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let n = Int((x * scale).rounded())
    guard digits > 0 else { return String(n) }
    let whole = String(abs(n) / Int(scale)), part = String(abs(n) % Int(scale))
    return (n < 0 ? "-" : "") + whole + "." + String(repeating: "0", count: digits - part.count) + part
}

private func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}

private func directoryBytes(_ path: String) -> Int {
    ((try? DirectoryListing.names(in: path)) ?? []).reduce(0) { $0 + fileSize(path + "/" + $1) }
}

private func removeTree(_ path: String) {
    for name in (try? DirectoryListing.names(in: path)) ?? [] { unlink(path + "/" + name) }
    rmdir(path)
}

/// The directory of this executable (where `swift build` puts `navlog` too).
private func executableDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard n > 0 else { return "." }
    let path = String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
}

/// Runs a program to completion; its standard output goes to `stdoutTo`
/// (a path) or is returned.
@discardableResult
private func runProcess(_ executable: String, _ args: [String], stdoutTo: String?) -> String {
    var pipeFDs: [Int32] = [0, 0]
    _ = pipe(&pipeFDs)
    #if os(Linux)
    var actions = posix_spawn_file_actions_t()
    #else
    var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdoutTo {
        posix_spawn_file_actions_addopen(&actions, 1, stdoutTo, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    } else {
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
    }
    posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
    let argv = ([executable] + args).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
    close(pipeFDs[1])
    guard status == 0 else {
        close(pipeFDs[0])
        print("cannot run \(executable): \(String(cString: strerror(status)))")
        return ""
    }
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(pipeFDs[0], &buffer, buffer.count)
        if n <= 0 { break }
        out.append(contentsOf: buffer[0..<n])
    }
    close(pipeFDs[0])
    var code: Int32 = 0
    waitpid(pid, &code, 0)
    return String(decoding: out, as: UTF8.self)
}
