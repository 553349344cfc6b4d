#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogSample
import NavLogStore

/// `navlog-bench store-lookup --store DIR`: what `STORE --session ID` costs
/// a process (issue 25). Builds, once, in DIR two segment stores with the
/// library: `short`, 1,000,000 generated sessions of 2–8 events, and `long`,
/// two sessions of 10,000,000 events (interleaved line by line) that part
/// 100 events before their end. Then times, as whole `navlog` processes:
/// `state STORE --session ID --at N` for 20 random (id, N) of `short`, the
/// same at random N of a long session (from a checkpoint), and `bisect` of
/// the two long sessions, with the blocks it decompressed. With `--seal yes`,
/// the last segment of each store is sealed first (footer and trailer), so
/// that opening the store reads footers instead of walking its frames.
enum StoreLookupBenchmark {
    static let suite = BenchmarkSuite(
        name: "store-lookup", summary: "STORE --session ID: state on 1M short sessions, bisect of two long ones",
        options: ["--store DIR (built when absent) [--sessions N] [--long-events N] [--seal yes] [--navlog PATH]"]
    ) { options in
        try run(options)
    }

    static func run(_ options: BenchmarkOptions) throws {
        guard let dir = options.string("store") else { throw BenchmarkFailure("usage: navlog-bench store-lookup --store DIR") }
        let navlog = try ChildProcess.navlogBinary(options)
        let sessions = try options.int("sessions", default: 1_000_000)
        let longEvents = try options.int("long-events", default: 10_000_000)
        mkdir(dir, 0o755)
        let short = dir + "/short", long = dir + "/long"
        let generator = SampleGenerator(.init(sessions: sessions, seed: 1, eventsPerSession: 2...8, interleave: true))
        if access(short, F_OK) != 0 { try buildShort(short, generator) }
        let longID = "s-000001"
        if access(long, F_OK) != 0 { try buildLong(long, events: longEvents, id: longID) }
        if options.string("seal") != nil {
            for store in [short, long] {
                let writer = try SegmentWriter(store: SegmentStore.open(at: store, writing: true))
                try writer.seal()
                try writer.close()
            }
            print("  sealed the last segment of each store")
        }

        var rng = SeededRandom(seed: 42)
        var runs: [Double] = []
        var cpu: [Double] = []
        for _ in 0..<20 {
            let id = generator.sessionID(Int(rng.next() % UInt64(sessions)))
            let at = Int(rng.next() % 8) + 1
            let run = try ChildProcess.runChecked(navlog, ["state", short, "--session", id, "--at", String(at)])
            runs.append(run.seconds)
            cpu.append(run.cpuSeconds)
        }
        report("state STORE --session ID --at N, \(sessions) sessions of 2-8 events (20 random)", runs, cpu: cpu)
        runs = []
        for _ in 0..<20 {
            let at = Int(rng.next() % UInt64(longEvents)) + 1
            runs.append(try ChildProcess.runChecked(navlog, ["state", long, "--session", longID, "--at", String(at)]).seconds)
        }
        report("state STORE --session ID --at N, a session of \(longEvents) events (20 random N)", runs)
        runs = []
        cpu = []
        for _ in 0..<5 {
            let run = try ChildProcess.run(navlog, ["--version"])
            runs.append(run.seconds)
            cpu.append(run.cpuSeconds)
        }
        report("navlog --version (process start)", runs, cpu: cpu)
        runs = []
        let bisect = ["bisect", long, long, "--session-a", longID, "--session-b", "copy"]
        for _ in 0..<5 {
            let r = try ChildProcess.run(navlog, bisect)
            guard r.status == 1 else { throw BenchmarkFailure("bisect exited with \(r.status), not 1") }
            runs.append(r.seconds)
        }
        report("bisect of two \(longEvents)-event sessions of one store parting near the end", runs)
        let out = dir + "/bisect.json"
        _ = try ChildProcess.run(navlog, bisect + ["--json"], stdoutPath: out)
        let json = readTextFile(out) ?? ""
        let found = json.firstRange(of: #""blocksDecompressed":"#).map { String(json[$0.lowerBound...].prefix(40)) } ?? "?"
        let position = json.firstRange(of: #""position":"#).map { String(json[$0.lowerBound...].prefix(22)) } ?? "?"
        print("  bisect: \(position.split(separator: ",")[0]), \(found.split(separator: "}")[0])}")
    }

    /// One line: the median wall time (and CPU time, user + system, when given), min and max.
    static func report(_ what: String, _ runs: [Double], cpu: [Double] = []) {
        let ms = runs.map { $0 * 1000 }
        let cpuText = cpu.isEmpty ? "" : " (CPU \(format(Timings.median(cpu.map { $0 * 1000 }))) ms)"
        print("  \(what): median \(format(Timings.median(ms))) ms\(cpuText), min \(format(ms.min() ?? 0)), max \(format(ms.max() ?? 0))")
    }

    static func format(_ ms: Double) -> String { String(Int((ms * 10).rounded()) / 10) + "." + String(Int((ms * 10).rounded()) % 10) }

    private static func buildShort(_ path: String, _ generator: SampleGenerator) throws {
        let start = monotonicSeconds()
        let writer = try SegmentWriter(store: SegmentStore.create(at: path))
        for event in generator.events() { try writer.add(Array(event.canonicalLine.utf8)) }
        try writer.close()
        print("  built \(path): \(writer.counts.stored) events in \(ImportBenchmark.format3(monotonicSeconds() - start)) s")
    }

    /// Two sessions of `events` events, line by line: `id`, and a copy named
    /// `copy` whose event 100 before the end pushes a screen the original never shows.
    private static func buildLong(_ path: String, events: Int, id: String) throws {
        let start = monotonicSeconds()
        let writer = try SegmentWriter(store: SegmentStore.create(at: path))
        let generator = SampleGenerator(.init(sessions: 1, seed: 3, eventsPerSession: events...events))
        let part = events - 100
        for (index, event) in generator.events().enumerated() {
            try writer.add(Array(event.canonicalLine.utf8))
            var copy = event
            copy.session = "copy"
            var line = copy.canonicalLine
            if index + 1 == part {
                line = #"{"seq":\#(event.seq),"session":"copy","stack":"zz","t":"\#(event.t.rfc3339)","type":"stack.push","value":{"id":"x","type":"Odd"}}"#
            }
            try writer.add(Array(line.utf8))
        }
        try writer.close()
        print("  built \(path): \(writer.counts.stored) events in \(ImportBenchmark.format3(monotonicSeconds() - start)) s")
    }
}
