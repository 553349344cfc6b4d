import NavLogCore
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
/// `TT_BISECT_EVENTS` (default 10,000,000), `TT_RUNS` (default 5).
func runTimeTravelBenchmark() {
    let env = { (name: String, fallback: Int) -> Int in getenv(name).flatMap { Int(String(cString: $0)) } ?? fallback }
    let ingestEvents = env("TT_INGEST_EVENTS", 1_000_000)
    let bisectEvents = env("TT_BISECT_EVENTS", 10_000_000)
    let runs = env("TT_RUNS", 5)
    let base = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp") + "/navlog-bench-timetravel"
    mkdir(base, 0o755)
    print("machine: \(machineDescription())")
    benchmarkIngest(events: ingestEvents, runs: runs, directory: base)
    benchmarkBisect(events: bisectEvents, runs: runs, directory: base)
}

// MARK: Ingest

private func benchmarkIngest(events count: Int, runs: Int, directory: String) {
    let input = directory + "/interleaved-\(count).ndjson"
    if !fileExists(input) {
        let sessions = max(count / 2000, 1)
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
    let ingest = medianSeconds(runs: runs) {
        let store = directory + "/store"
        removeTree(store)
        let ingester = StoreIngester(store: try! Store(directory: store, create: true))
        let report = try! ingester.ingest(paths: [input], onReject: { print("rejected: \($0)") })
        lines = report.stored
        sessions = report.sessions
    }
    let lz4 = medianSeconds(runs: runs) { _ = runProcess("/usr/bin/env", ["lz4", "-1", "-q", "-f", "-c", input], stdoutTo: "/dev/null") }
    let storeBytes = directoryBytes(directory + "/store")
    print(String(format: "ingest: %d events of %d sessions, %.1f MB NDJSON", lines, sessions, Double(bytes) / 1e6))
    print(String(format: "  navlog ingest   median %.3f s  (%.0f events/s, %.0f MB/s)  runs %@",
                 ingest.median, Double(lines) / ingest.median, Double(bytes) / ingest.median / 1e6, format(ingest.all)))
    print(String(format: "  lz4 -1          median %.3f s  (%.0f events/s, %.0f MB/s)  runs %@",
                 lz4.median, Double(lines) / lz4.median, Double(bytes) / lz4.median / 1e6, format(lz4.all)))
    print(String(format: "  ratio to lz4 -1 (speed): %.2f   store %.1f MB (%.2f of the NDJSON)",
                 lz4.median / ingest.median, Double(storeBytes) / 1e6, Double(storeBytes) / Double(bytes)))
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
    let blocks = output.range(of: #""blocksDecompressed":"#).map { String(output[$0.upperBound...].prefix { $0 != "}" }) + "}" } ?? "?"
    let position = output.range(of: #""position":"#).map { String(output[$0.upperBound...].prefix { $0 != "," }) } ?? "?"
    let readerA = try! LogReader(path: a)
    // The peer: a full replay of both logs (every event decompressed, parsed, folded).
    var folded = 0
    let replay = medianSeconds(runs: 1) {
        for path in [a, b] {
            let reader = try! LogReader(path: path)
            var state = NavigationState(session: try! reader.session() ?? "")
            let cursor = reader.cursor()
            while let event = try! cursor.next() { state.apply(event); folded += 1 }
        }
    }
    print(String(format: "bisect: two logs of %d events (%d blocks each, %.1f MB each), B differs at position %d",
                 count, readerA.blocks.count, Double(fileSize(a)) / 1e6, divergeAt))
    print(String(format: "  navlog bisect (whole process)  median %.1f ms  runs %@  position %@  blocks decompressed %@",
                 bisect.median * 1000, format(bisect.all, scale: 1000), position, blocks))
    print(String(format: "  full replay of both            %.2f s (%d events)", replay.median, folded))
    print(String(format: "  ratio bisect / full replay: %.5f (%.0f× faster)", bisect.median / replay.median, replay.median / bisect.median))
}

// MARK: Helpers

private func format(_ times: [Double], scale: Double = 1) -> String {
    "[" + times.map { String(format: scale == 1 ? "%.3f" : "%.1f", $0 * scale) }.joined(separator: ", ") + "]"
}

private func fileExists(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0
}

private func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}

private func directoryBytes(_ path: String) -> Int {
    guard let dir = opendir(path) else { return 0 }
    defer { closedir(dir) }
    var total = 0
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { total += fileSize(path + "/" + name) }
    }
    return total
}

private func removeTree(_ path: String) {
    guard let dir = opendir(path) else { return }
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { unlink(path + "/" + name) }
    }
    closedir(dir)
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
    pipe(&pipeFDs)
    let pid = fork()
    if pid == 0 {
        if let stdoutTo {
            let fd = open(stdoutTo, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            dup2(fd, 1)
        } else {
            dup2(pipeFDs[1], 1)
        }
        close(pipeFDs[0])
        let argv = ([executable] + args).map { strdup($0) } + [nil]
        execv(executable, argv)
        _exit(127)
    }
    close(pipeFDs[1])
    var out: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = read(pipeFDs[0], &buffer, buffer.count)
        if n <= 0 { break }
        out.append(contentsOf: buffer[0..<n])
    }
    close(pipeFDs[0])
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return String(decoding: out, as: UTF8.self)
}
