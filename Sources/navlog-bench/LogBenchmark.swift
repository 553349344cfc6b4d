#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CLZ4
import NavLogCore
import NavLogSample
import NavLogStore
import NavLogTestSupport

/// Issue 3: the `.navlog` log beside the stock `lz4` tool on the same
/// canonical NDJSON, measured in the same run.
///
/// On a generated session of `--small-events` (default 1M) events held in
/// memory: append throughput with flush-on-seal (``LogWriterOptions/Durability/everySeal``),
/// compressed size, and a full read + fold; each beside `lz4 -1` (the real
/// binary, file to file, whole process) and liblz4's `LZ4F_compressFrame` at
/// the same level in this process. Then, on logs of `--small-events` and
/// `--events` (default 10M) events built streaming under a temporary
/// directory: `navlog state LOG --at <random seq>` as a whole process (the
/// release binary next to this one), and the peak RSS of `navlog cat` and
/// `navlog state`. Everything is deleted at the end unless `--keep`.
enum LogBenchmark {
    static let suite = BenchmarkSuite(
        name: "log",
        summary: "the .navlog log vs the lz4 tool: append, size, read+fold, state --at, RSS",
        options: [
            "--small-events N  events for the throughput figures (default 1M)",
            "--events N        events of the large log for seek and RSS figures (default 10M)",
            "--seeks N         rounds of the process figures: random seqs per log for `navlog state --at` (default 31)",
            "--navlog PATH     the navlog binary (default: next to navlog-bench)",
            "--keep            keep the temporary directory",
            "--throughput-only only the append, size and read + fold figures",
        ],
        run: run
    )

    static func run(_ options: BenchmarkOptions) throws {
        let small = try options.int("small-events", default: 1_000_000)
        let large = try options.int("events", default: 10_000_000)
        let seeks = max(1, try options.int("seeks", default: 31))
        let navlog = try ChildProcess.navlogBinary(options)
        guard let lz4 = ChildProcess.which("lz4") else {
            throw BenchmarkFailure("the lz4 tool is not on PATH (apt-get install lz4)")
        }
        let directory = try TemporaryDirectory(keep: options.flag("keep"))
        defer { if !options.flag("keep") { directory.remove() } else { print("kept \(directory.path)") } }
        print("navlog: \(navlog)\nlz4: \(lz4)\ntemporary files: \(directory.path)\n")

        try throughput(events: small, options: options, lz4: lz4, navlog: navlog, in: directory)
        if options.flag("throughput-only") { return }
        try seekAndMemory(small: small, large: large, seeks: seeks, options: options, lz4: lz4, navlog: navlog, in: directory)
    }

    // MARK: Append, size, read + fold

    private static func throughput(
        events count: Int, options: BenchmarkOptions, lz4: String, navlog: String, in directory: TemporaryDirectory
    ) throws {
        let runs = options.runs
        let corpus = SampleCorpus(events: count, seed: options.seed)
        let raw = corpus.bytes.count
        let ndjson = directory.file("small.ndjson")
        try writeFile(ndjson, corpus.bytes)
        var events: [Event] = []
        events.reserveCapacity(corpus.eventCount)
        var parser = EventLineParser()
        try corpus.forEachLine { events.append(try parser.parse($0)) }
        print("\(corpus.eventCount) events of one generated session: \(megabytes(raw)) of canonical NDJSON\n")

        let log = directory.file("append.navlog")
        let cliLog = directory.file("cli.navlog")
        let lz4Out = directory.file("small.ndjson.lz4")
        let sealing = LogWriterOptions(durability: .everySeal)
        let session = events.first?.session ?? ""
        var frameSize = 0
        print("each run times every piece once, round-robin (warm-up round first)\n")
        let timings = try measureInterleaved(runs: runs, [
            {   // navlog: append every event, sealing (and syncing) each block, then close
                unlink(log)
                let writer = try LogWriter(path: log, options: sealing)
                for event in events { try writer.append(event) }
                try writer.close()
            },
            {   // the same with sealed blocks compressed, written and synced on the writer's own thread
                unlink(log)
                let writer = try LogWriter(path: log, options: LogWriterOptions(durability: .everySeal, sealsInBackground: true))
                for event in events { try writer.append(event) }
                try writer.close()
            },
            {   // the same with no sync until close (on-flush durability): the CPU part
                unlink(log)
                let writer = try LogWriter(path: log, options: LogWriterOptions(durability: .onFlush))
                for event in events { try writer.append(event) }
                try writer.close()
            },
            {   // navlog append as a process, canonical NDJSON on stdin
                unlink(cliLog)
                _ = try ChildProcess.runChecked(navlog, ["append", cliLog, "--durability", "every-seal"], stdinPath: ndjson)
            },
            {   // lz4 -1, the real tool, file to file (whole process)
                _ = try ChildProcess.runChecked(lz4, ["-1", "-q", "-f", ndjson, lz4Out])
            },
            {   // liblz4 in process: LZ4F_compressFrame at level 1, the lz4 tool's frame settings
                frameSize = compressFrame(corpus.bytes)
            },
            {   // full read + fold of the log
                let reader = try LogReader(path: log)
                let cursor = reader.cursor()
                var projector = NavigationProjector(session: session)
                var n = 0
                while let event = try cursor.next() {
                    _ = projector.apply(event)
                    n += 1
                }
                guard n == events.count else { throw BenchmarkFailure("read \(n) events of \(events.count)") }
                blackHole(projector.state)
            },
            {   // full read + fold with LogReader.scan: worker threads decompress and parse ahead
                let reader = try LogReader(path: log)
                var projector = NavigationProjector(session: session)
                var n = 0
                try reader.scan { event in
                    _ = projector.apply(event)
                    n += 1
                }
                guard n == events.count else { throw BenchmarkFailure("scanned \(n) events of \(events.count)") }
                blackHole(projector.state)
            },
            {   // navlog cat (whole process) of the log
                _ = try ChildProcess.runChecked(navlog, ["cat", log])
            },
            {   // lz4 -dc of the same NDJSON, for scale
                _ = try ChildProcess.runChecked(lz4, ["-dc", lz4Out])
            },
        ])
        let (append, appendBackground, appendNoSync, cli, lz4Tool, inProcess, readFold, scanFold, cat, lz4Decompress) =
            (timings[0], timings[1], timings[2], timings[3], timings[4], timings[5], timings[6], timings[7], timings[8],
             timings[9])
        let logSize = fileSize(log)
        let lz4Size = fileSize(lz4Out)

        let n = Double(corpus.eventCount)
        var table = Table("work", "median", "events/s", "MB/s (NDJSON)", "vs lz4 -1 tool", "vs liblz4 in-process")
        func row(_ name: String, _ t: Timings, peers: Bool = true) {
            table.add(name, milliseconds(t.median), rate(n / t.median), megabytesPerSecond(raw, t.median),
                      peers ? ratio(lz4Tool.median, t.median) : "", peers ? ratio(inProcess.median, t.median) : "")
        }
        row("LogWriter.append, every-seal durability, + close", append)
        row("the same, sealsInBackground (compress, write, sync on the writer's thread)", appendBackground)
        row("LogWriter.append, on-flush durability (one sync, at close)", appendNoSync)
        row("`navlog append --durability every-seal` (process)", cli)
        row("`lz4 -1 in out` (process, file to file)", lz4Tool)
        row("liblz4 LZ4F_compressFrame level 1 (in process)", inProcess)
        row("LogReader cursor + fold, every event (one thread)", readFold, peers: false)
        row("LogReader.scan + fold, every event (\(LogReader.scanWorkers) parsing threads + this one)", scanFold, peers: false)
        row("`navlog cat LOG > /dev/null` (process)", cat, peers: false)
        row("`lz4 -dc X.lz4 > /dev/null` (process)", lz4Decompress, peers: false)
        table.print()
        print("(\"vs\" columns: the peer's median time / ours, so ≥ 0.50 means at least half the peer's throughput)\n")

        var sizes = Table("output", "bytes", "vs lz4 -1")
        sizes.add(".navlog (default settings)", "\(logSize)", ratio(Double(logSize), Double(lz4Size)))
        sizes.add("`lz4 -1` of the NDJSON", "\(lz4Size)", "1.00×")
        sizes.add("LZ4F_compressFrame level 1", "\(frameSize)", ratio(Double(frameSize), Double(lz4Size)))
        sizes.add("canonical NDJSON", "\(raw)", ratio(Double(raw), Double(lz4Size)))
        sizes.print()

        verdict("append ≥ 1M events/s (sealsInBackground)", n / appendBackground.median >= 1e6)
        verdict("append ≥ 50% of `lz4 -1` tool throughput (sealsInBackground)", lz4Tool.median / appendBackground.median >= 0.5)
        verdict("append ≥ 50% of liblz4 in-process throughput (sealsInBackground)", inProcess.median / appendBackground.median >= 0.5)
        verdict("append ≥ 1M events/s (one thread)", n / append.median >= 1e6)
        verdict("append ≥ 50% of `lz4 -1` tool throughput (one thread)", lz4Tool.median / append.median >= 0.5)
        verdict("size ≤ 1.05 × `lz4 -1`", Double(logSize) <= 1.05 * Double(lz4Size))
        verdict("full read + fold ≥ 3M events/s (LogReader.scan)", n / scanFold.median >= 3e6)
        verdict("full read + fold ≥ 3M events/s with a cursor (one thread)", n / readFold.median >= 3e6)
        print("")
    }

    // MARK: state --at, start-up, RSS

    private static func seekAndMemory(
        small: Int, large: Int, seeks: Int, options: BenchmarkOptions, lz4: String, navlog: String,
        in directory: TemporaryDirectory
    ) throws {
        var random = SeededRandom(seed: options.seed)
        // The logs: a 10-event one for process start-up, then the two sizes.
        let tiny = directory.file("tiny.navlog")
        try buildLog(tiny, events: 10, seed: options.seed, ndjson: nil)
        let counts = [small, large].filter { $0 > 0 }
        var logs: [String] = []
        for count in counts {
            let log = directory.file("log-\(count).navlog")
            let ndjson = directory.file("log-\(count).ndjson")
            let buildStart = monotonicSeconds()
            try buildLog(log, events: count, seed: options.seed, ndjson: ndjson)
            let buildSeconds = monotonicSeconds() - buildStart
            let raw = fileSize(ndjson)
            let lz4Out = directory.file("log-\(count).ndjson.lz4")
            _ = try ChildProcess.runChecked(lz4, ["-1", "-q", "-f", ndjson, lz4Out])
            print("\(count)-event log: \(megabytes(raw)) NDJSON → \(megabytes(fileSize(log))) .navlog "
                + "(\(ratio(Double(fileSize(log)), Double(fileSize(lz4Out)))) `lz4 -1`, \(megabytes(fileSize(lz4Out)))); "
                + "built streaming in \(format(buildSeconds, digits: 1)) s (generate + append + NDJSON copy)")
            unlink(ndjson)
            unlink(lz4Out)
            _ = try ChildProcess.runChecked(navlog, ["cat", log])   // warm the page cache
            logs.append(log)
        }
        print("")

        // Every command once per round, round-robin, so that every log size sees the same load.
        typealias Command = (name: String, events: Int, path: String, arguments: [String])
        var commands: [Command] = [
            ("`/bin/true` (spawn floor)", 0, "/bin/true", []),
            ("`navlog --help`", 0, navlog, ["--help"]),
            ("`navlog state LOG --at 5`", 10, navlog, ["state", tiny, "--at", "5"]),
        ]
        var seqCommands: [(index: Int, count: Int, log: String, json: Bool)] = []
        for (count, log) in zip(counts, logs) {
            seqCommands.append((commands.count, count, log, false))
            commands.append(("`navlog state LOG --at <random seq>`", count, navlog, []))
            seqCommands.append((commands.count, count, log, true))
            commands.append(("`navlog state LOG --at <random seq> --json`", count, navlog, []))
            commands.append(("`navlog state LOG` (end)", count, navlog, ["state", log]))
            commands.append(("`navlog cat LOG > /dev/null`", count, navlog, ["cat", log]))
        }
        var results = [[ChildRun]](repeating: [], count: commands.count)
        var lastArguments = commands.map(\.arguments)
        for round in 0..<seeks {
            for (i, command) in commands.enumerated() {
                var arguments = command.arguments
                if let s = seqCommands.first(where: { $0.index == i }) {
                    arguments = ["state", s.log, "--at", "\(1 + random.int(below: s.count))"] + (s.json ? ["--json"] : [])
                } else if command.path == navlog && command.arguments.first == "cat" && round >= 3 {
                    continue   // a whole cat takes long: three are enough
                }
                lastArguments[i] = arguments
                results[i].append(try ChildProcess.runChecked(command.path, arguments))
            }
        }

        var table = Table("process", "events", "median wall", "p90 wall", "max wall", "peak RSS (max)")
        let gnuTime = access("/usr/bin/time", X_OK) == 0
        var worstRSS = 0
        var medians: [Int: Double] = [:]
        for (i, command) in commands.enumerated() {
            let walls = results[i].map(\.seconds).sorted()
            // The RSS is GNU time's (the program's own) when it is installed,
            // else the probe's (never below the probe's own floor).
            var rss = results[i].map(\.peakRSS).max()!
            if gnuTime {
                rss = try (0..<3).compactMap { _ in try ChildProcess.peakRSSByGNUTime(command.path, lastArguments[i]) }.max() ?? rss
            }
            if command.path == navlog { worstRSS = max(worstRSS, rss) }
            let median = Timings.median(walls)
            if seqCommands.contains(where: { $0.index == i && !$0.json }) { medians[command.events] = median }
            table.add(command.name, command.events == 0 ? "" : "\(command.events)", milliseconds(median),
                      milliseconds(walls[min(walls.count - 1, walls.count * 9 / 10)]), milliseconds(walls.last!),
                      mebibytes(rss))
        }
        for log in logs { unlink(log) }
        table.print()
        print("(wall: spawn to reaped, by posix_spawn + wait4, page cache warm; peak RSS: "
            + (gnuTime ? "ru_maxrss as GNU time `/usr/bin/time -f %M` reports it, max of 3 runs)\n"
                       : "ru_maxrss from wait4 through the probe, so never below the probe's own ~16 MiB; install GNU time for the program's own)\n"))
        if let a = medians[small], let b = medians[large] {
            verdict("`state --at` median ≤ 20 ms on the \(large)-event log", b <= 0.020)
            print("flat: median at \(large) events / at \(small) events = \(ratio(b, a))")
        }
        verdict("peak RSS of cat/state < 64 MB", worstRSS < 64 << 20)
    }

    // MARK: Helpers

    private static func verdict(_ target: String, _ met: Bool) {
        print("target \(target): \(met ? "met" : "MISSED")")
    }

    /// Builds a log of `count` generated events streaming (and the same
    /// events as canonical NDJSON in `ndjson`, when given).
    private static func buildLog(_ path: String, events count: Int, seed: UInt64, ndjson: String?) throws {
        unlink(path)
        let writer = try LogWriter(path: path)
        var copy: UnsafeMutablePointer<FILE>?
        if let ndjson {
            guard let f = fopen(ndjson, "w") else { throw BenchmarkFailure("cannot write \(ndjson)") }
            copy = f
        }
        defer { if let copy { fclose(copy) } }
        var canonical = CanonicalWriter(capacity: 1 << 20)
        for event in SampleCorpus.generator(events: count, seed: seed).events() {
            try writer.append(event)
            if copy != nil {
                canonical.write(event)
                canonical.bytes.append(0x0A)
                if canonical.bytes.count >= 1 << 20 {
                    fwrite(canonical.bytes, 1, canonical.bytes.count, copy)
                    canonical.reset()
                }
            }
        }
        if let copy { fwrite(canonical.bytes, 1, canonical.bytes.count, copy) }
        try writer.close()
    }

    private static func writeFile(_ path: String, _ bytes: [UInt8]) throws {
        guard let f = fopen(path, "w") else { throw BenchmarkFailure("cannot write \(path)") }
        defer { fclose(f) }
        guard fwrite(bytes, 1, bytes.count, f) == bytes.count else { throw BenchmarkFailure("cannot write \(path)") }
    }

    /// liblz4's one-call frame compression at level 1 with the `lz4` tool's
    /// defaults (4 MB independent blocks, content checksum); returns the size.
    private static func compressFrame(_ input: [UInt8]) -> Int {
        var preferences = LZ4F_preferences_t()
        preferences.compressionLevel = 1
        preferences.frameInfo.blockSizeID = LZ4F_max4MB
        preferences.frameInfo.blockMode = LZ4F_blockIndependent
        preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
        let bound = LZ4F_compressFrameBound(input.count, &preferences)
        let output = UnsafeMutableRawPointer.allocate(byteCount: bound, alignment: 16)
        defer { output.deallocate() }
        let written = input.withUnsafeBytes { LZ4F_compressFrame(output, bound, $0.baseAddress, $0.count, &preferences) }
        return LZ4F_isError(written) != 0 ? 0 : written
    }
}
