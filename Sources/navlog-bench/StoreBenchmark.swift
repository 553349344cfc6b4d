#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog-bench store`: the ingest benchmark. For each corpus (A–D,
/// A′–D′ and E, ``StoreCorpus``) and each file system (ext4 and tmpfs directories), times
/// round-robin, as child processes each measured by `wait4` (wall time and
/// peak RSS): `lz4 -1` on the NDJSON, the library writer
/// (`navlog-bench segment-write`: SegmentWriter.add of every line), and the
/// real `navlog ingest INPUT --store S` of the `navlog` next to this
/// benchmark (the table says which layout it wrote). Figures are medians
/// of `--runs` rounds after one warm-up round; sizes are `du`'s (allocated
/// blocks) after the last round, the store's without its screen projection
/// and the projection's apart; each figure is set against its target.
enum StoreBenchmark {
    static let suite = BenchmarkSuite(
        name: "store", summary: "segment store: ingest and writer vs lz4 -1, size, projection size, peak RSS, on ext4 and tmpfs",
        options: ["--corpora DIR (generated corpora, kept; default $TMPDIR/navlog-bench-corpora)",
                  "--ext4 DIR (default /tmp)  --tmpfs DIR (default /dev/shm)  --only A,B,C,D,A',B',C',D',E (default all)  --fs ext4,tmpfs",
                  "--navlog PATH (default: the navlog next to navlog-bench)",
                  "--ingest segments|all|none (default segments: ingest is timed when it writes a segment store)"]) { options in
        try run(options)
    }

    /// The targets: speed against `lz4 -1`, size against its output (the
    /// store without its projection, and the projection apart), peak RSS.
    static let speedTarget = 0.5
    static let sizeTarget = 1.15
    static let projectionTarget = 0.35
    static let rssTarget = 256 << 20

    /// One timed program of a round.
    struct Contender {
        let name: String
        let arguments: (_ input: String, _ output: String) -> (String, [String])
        var seconds: [Double] = []
        var cpu: [Double] = []
        var peakRSS = 0
        var bytes = 0
        /// Of ``bytes``, the screen projection's (a store's `.views` files).
        var projection = 0
    }

    static func run(_ options: BenchmarkOptions) throws {
        let navlog = try ChildProcess.navlogBinary(options)
        guard let lz4 = ChildProcess.which("lz4") else { throw BenchmarkFailure("store: needs lz4 on PATH") }
        let tmp = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        let corpora = options.string("corpora") ?? tmp + "/navlog-bench-corpora"
        mkdir(corpora, 0o755)
        let systems = (options.string("fs") ?? "ext4,tmpfs").split(separator: ",").map(String.init)
        let places = ["ext4": options.string("ext4") ?? "/tmp", "tmpfs": options.string("tmpfs") ?? "/dev/shm"]
        let layout = try ingestLayout(navlog, corpora: corpora)
        let timesIngest = options.string("ingest") == "all" || (options.string("ingest") ?? "segments") == layout
        print("store benchmark: \(Machine.description); navlog \(navlog) (ingest writes \(layout)\(timesIngest ? "" : ", not timed: --ingest all times it")); "
              + "median of \(options.runs) rounds after a warm-up")
        var table = Table("corpus", "fs", "events", "MB", "lz4 -1", "writer", "writer/lz4", "ingest", "ingest/lz4",
                          "size writer/lz4", "size ingest/lz4", "projection/lz4", "RSS writer", "RSS ingest", "ingest wrote")
        var cpuTable = Table("corpus", "fs", "lz4 -1 CPU", "writer CPU", "writer/lz4", "ingest CPU", "ingest/lz4")
        for corpus in try StoreCorpus.named(options.string("only"), fallback: StoreCorpus.all) {
            let input = try corpus.path(in: corpora, navlog: navlog)
            let events = try lineCount(input)
            for system in systems {
                guard let place = places[system] else { throw BenchmarkFailure("store: --fs takes ext4,tmpfs") }
                let work = "\(place)/navlog-bench-store-\(getpid())"
                mkdir(work, 0o755)
                defer { removeRecursively(work) }
                var contenders = [Contender(name: "lz4") { input, output in (lz4, ["-1", "-q", "-f", input, output]) }]
                // The library writer takes canonical lines with their seq only: not producer-style corpora.
                let timesWriter = corpus.style == "navlog"
                if timesWriter {
                    contenders.append(Contender(name: "writer") { input, output in
                        (ChildProcess.selfPath, ["segment-write", "--input", input, "--store", output])
                    })
                }
                if timesIngest { contenders.append(Contender(name: "ingest") { input, output in (navlog, ["ingest", input, "--store", output]) }) }
                let wrote = timesIngest ? layout : "\(layout), not timed"
                for round in 0...options.runs {
                    for k in contenders.indices {
                        let output = "\(work)/\(contenders[k].name)"
                        removeRecursively(output)
                        sync()
                        let (program, arguments) = contenders[k].arguments(input, output)
                        let child = try ChildProcess.runChecked(program, arguments)
                        if round > 0 {
                            contenders[k].seconds.append(child.seconds)
                            contenders[k].cpu.append(child.cpuSeconds)
                        }
                        contenders[k].peakRSS = max(contenders[k].peakRSS, child.peakRSS)
                        contenders[k].bytes = allocatedBytes(output)
                        contenders[k].projection = projectionBytes(output)
                    }
                }
                let size = fileSize(input)
                let none = Contender(name: "none") { _, _ in ("", []) }
                let l = contenders[0]
                let w = contenders.first { $0.name == "writer" } ?? none
                let g = contenders.first { $0.name == "ingest" } ?? none
                let lt = Timings.median(l.seconds), wt = Timings.median(w.seconds), gt = Timings.median(g.seconds)
                table.add(corpus.name, system, "\(events)", format(Double(size) / 1e6, digits: 0),
                          megabytesPerSecond(size, lt), timesWriter ? megabytesPerSecond(size, wt) : "–",
                          timesWriter ? against(lt / wt, speedTarget, atLeast: true) : "–",
                          timesIngest ? megabytesPerSecond(size, gt) : "–", timesIngest ? against(lt / gt, speedTarget, atLeast: true) : "–",
                          timesWriter ? against(Double(w.bytes) / Double(l.bytes), sizeTarget, atLeast: false) : "–",
                          timesIngest ? against(Double(g.bytes - g.projection) / Double(l.bytes), sizeTarget, atLeast: false) : "–",
                          timesIngest ? against(Double(g.projection) / Double(l.bytes), projectionTarget, atLeast: false) : "–",
                          timesWriter ? rss(w.peakRSS) : "–", timesIngest ? rss(g.peakRSS) : "–", wrote)
                cpuTable.add(corpus.name, system, megabytesPerSecond(size, Timings.median(l.cpu)),
                             timesWriter ? megabytesPerSecond(size, Timings.median(w.cpu)) : "–",
                             timesWriter ? format(Timings.median(l.cpu) / Timings.median(w.cpu), digits: 2) : "–",
                             timesIngest ? megabytesPerSecond(size, Timings.median(g.cpu)) : "–",
                             timesIngest ? format(Timings.median(l.cpu) / Timings.median(g.cpu), digits: 2) : "–")
                print("  \(corpus.name) \(system): wall lz4 \(seconds(l.seconds)) writer \(seconds(w.seconds)) ingest \(seconds(g.seconds)); "
                      + "CPU lz4 \(seconds(l.cpu)) writer \(seconds(w.cpu)) ingest \(seconds(g.cpu)); "
                      + "du lz4 \(l.bytes) writer \(w.bytes) ingest \(g.bytes) (projection \(g.projection))")
            }
        }
        table.print()
        print("CPU time (user + system) of the same runs, for a loaded machine: MB of NDJSON per CPU second, and lz4's over the program's")
        cpuTable.print()
        print("speed: MB of NDJSON per second of wall time; ratios are lz4 -1's time over the program's (target ≥ \(speedTarget)); "
              + "size: du of the store over du of the .lz4 (target ≤ \(sizeTarget)): the writer's whole store, ingest's without its "
              + "screen projection, which is apart (target ≤ \(projectionTarget)); RSS: peak, target ≤ \(rssTarget >> 20) MiB")
    }

    /// What `navlog ingest` writes: `segments` (a store with the
    /// `navlog-store` manifest) or `v1 layout` (one `.navlog` per session),
    /// found by ingesting one event.
    static func ingestLayout(_ navlog: String, corpora: String) throws(BenchmarkFailure) -> String {
        let probe = "\(corpora)/probe-\(getpid())"
        defer { removeRecursively(probe); unlink(probe + ".ndjson") }
        let line = #"{"seq":1,"session":"probe","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"# + "\n"
        guard let file = fopen(probe + ".ndjson", "w") else { throw BenchmarkFailure("cannot write \(probe).ndjson") }
        fputs(line, file)
        fclose(file)
        _ = try ChildProcess.runChecked(navlog, ["ingest", probe + ".ndjson", "--store", probe])
        return access(probe + "/navlog-store", F_OK) == 0 ? "segments" : "v1 layout"
    }

    /// `0.62 met` / `0.41 missed`.
    static func against(_ value: Double, _ target: Double, atLeast: Bool) -> String {
        format(value, digits: 2) + ((atLeast ? value >= target : value <= target) ? " met" : " missed")
    }

    static func rss(_ bytes: Int) -> String {
        "\(bytes >> 20) MiB" + (bytes <= rssTarget ? " met" : " missed")
    }

    static func seconds(_ runs: [Double]) -> String {
        "[" + runs.map { format($0, digits: 2) }.joined(separator: " ") + "] s"
    }

    /// Lines of a file (its events).
    static func lineCount(_ path: String) throws(BenchmarkFailure) -> Int {
        guard let file = fopen(path, "rb") else { throw BenchmarkFailure("cannot open \(path)") }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var lines = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { fread($0.baseAddress!, 1, $0.count, file) }
            if read == 0 { break }
            for k in 0..<read where buffer[k] == 0x0A { lines += 1 }
        }
        return lines
    }
}
