#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// What `navlog-bench analytics` reads: corpora A–D, A′–D′ and E of the
/// store benchmark (``StoreCorpus``) stored with `navlog ingest`, and N, an
/// NDJSON of 1M short sessions one after another read as it is; with
/// `--direct`, the NDJSON of the chosen corpora read as it is.
struct AnalyticsSource {
    let corpus: StoreCorpus
    /// Stored with `navlog ingest` (A–E), or the NDJSON read directly (N).
    let stored: Bool

    /// N: `navlog generate --sessions 1000000 --events-per-session 2-8` (issue 26).
    static let ndjson = StoreCorpus(name: "N", sessions: 1_000_000, eventsPerSession: "2-8", live: 0, seed: 5)

    static let all = StoreCorpus.all.map { AnalyticsSource(corpus: $0, stored: true) } + [AnalyticsSource(corpus: ndjson, stored: false)]

    /// The sources named by `--corpus A,C',E,N` (every one without it);
    /// `direct`: each corpus's NDJSON read as it is instead of its store.
    static func chosen(_ names: String?, direct: Bool = false) throws(BenchmarkFailure) -> [AnalyticsSource] {
        var chosen = all
        if let names {
            let wanted = names.split(separator: ",").map { $0.uppercased() }
            let known = all.map(\.corpus.name).joined(separator: ",")
            if wanted.isEmpty { throw BenchmarkFailure("--corpus takes \(known)") }
            for name in wanted where !all.contains(where: { $0.corpus.name == name }) {
                throw BenchmarkFailure("no corpus \(name) (--corpus takes \(known))")
            }
            chosen = all.filter { wanted.contains($0.corpus.name) }
        }
        return direct ? chosen.map { AnalyticsSource(corpus: $0.corpus, stored: false) } : chosen
    }

    /// The corpus's name; `A NDJSON` for a store corpus's NDJSON read directly.
    var name: String { stored || corpus.name == Self.ndjson.name ? corpus.name : corpus.name + " NDJSON" }

    /// The ratio to DuckDB a question must stay within: a store's straight
    /// after ingest, or NDJSON read directly.
    var ratioTarget: Double { stored ? 0.5 : 1.0 }

    /// How the source was made, for the table.
    var shape: String {
        let sessions = FunnelText.grouped(corpus.sessions)
        let screens = corpus.screens.map { ", \($0) screens" } ?? ""
        let style = corpus.style == "navlog" ? "" : ", \(corpus.style) style"
        return stored
            ? "store: \(sessions) sessions × \(corpus.eventsPerSession)\(screens), \(corpus.live) under way\(style)"
            : "NDJSON read directly: \(sessions) sessions × \(corpus.eventsPerSession)\(screens), "
                + (corpus.live == 0 ? "one after another" : "\(corpus.live) under way") + style
    }
}

/// A source made ready: the corpus, what navlog reads (a store or the
/// NDJSON), and what DuckDB reads (`export screens --with-marks` CSV, and the
/// sessions' `app.version` for `--by`).
struct PreparedSource {
    let source: AnalyticsSource
    /// The corpus NDJSON.
    let corpus: String
    /// The argument navlog reads: the store, or the corpus itself.
    let input: String
    /// `navlog export screens INPUT --with-marks`, made in this run by this navlog.
    let screensCSV: String
    /// Events in the corpus.
    let events: Int
    /// Rows of `navlog export screens INPUT` (screen views).
    let screenRows: Int
    /// `du` of the store (0 for N).
    let storeBytes: Int
    /// Of ``storeBytes``, the screen projection's.
    let projectionBytes: Int
    /// What `ingest` wrote: `segments` or `v1 layout` (`–` for N).
    let layout: String
}

extension AnalyticsSource {
    /// Generates the corpus if missing, ingests it into a store under
    /// `work` unless one made by this very `navlog` is there (with the
    /// screen projection its writer keeps from the first commit), and writes
    /// the CSVs DuckDB reads from the events (the projection moved aside
    /// meanwhile). With `projection` false the projection is then removed
    /// (so that the events are read); otherwise it is put back as `ingest`
    /// left it: the questions are those asked straight after an ingest.
    func prepare(navlog: String, corpora: String, work: String, tools: String, projection: Bool) throws(BenchmarkFailure) -> PreparedSource {
        let corpusPath = try corpus.path(in: corpora, navlog: navlog)
        let base = work + "/" + String(corpus.fileName.dropLast(".ndjson".count)) + (stored || corpus.name == Self.ndjson.name ? "" : "-direct")
        var input = corpusPath
        let aside = base + ".views-aside"
        var views: [String] = []
        if stored {
            input = base + ".store"
            try ingestOnce(navlog: navlog, corpus: corpusPath, store: input)
            // DuckDB's CSV comes from the events: the projection is set aside while it is exported.
            removeRecursively(aside)
            mkdir(aside, 0o755)
            views = ((try? DirectoryListing.names(in: input)) ?? []).filter { $0.hasSuffix(".views") }
            for file in views where rename(input + "/" + file, aside + "/" + file) != 0 {
                throw BenchmarkFailure("cannot move \(input)/\(file) aside")
            }
        }
        let screens = base + "-screens.csv"
        let exported = try ChildProcess.runChecked(navlog, ["export", "screens", input, "--with-marks"], stdoutPath: screens)
        print("  \(name): export screens --with-marks (from the events) → \(screens) in \(format(exported.seconds, digits: 2)) s")
        if stored && projection {
            for file in views where rename(aside + "/" + file, input + "/" + file) != 0 {
                throw BenchmarkFailure("cannot put \(input)/\(file) back")
            }
            print("  \(name): the screen projection as ingest left it (\(views.count) file\(views.count == 1 ? "" : "s"))")
        }
        if stored && !projection {
            // Without its projection the store is not what ingest left: the next run ingests again.
            unlink(input + ".made-by")
        }
        if stored { removeRecursively(aside) }
        return PreparedSource(
            source: self, corpus: corpusPath, input: input, screensCSV: screens,
            events: try StoreBenchmark.lineCount(corpusPath), screenRows: try Self.screenRows(screens),
            storeBytes: stored ? allocatedBytes(input) : 0, projectionBytes: stored ? projectionBytes(input) : 0,
            layout: stored ? (access(input + "/navlog-store", F_OK) == 0 ? "segments" : "v1 layout") : "–")
    }

    /// `navlog ingest CORPUS --store STORE`, unless STORE was made by the
    /// same navlog binary (its size and modification time, kept in `STORE.made-by`).
    private func ingestOnce(navlog: String, corpus: String, store: String) throws(BenchmarkFailure) {
        let stamp = store + ".made-by"
        let identity = Self.identity(of: navlog)
        if readTextFile(stamp) == identity, access(store, F_OK) == 0 { return }
        unlink(stamp)
        removeRecursively(store)
        let ingested = try ChildProcess.runChecked(navlog, ["ingest", corpus, "--store", store])
        print("  \(name): navlog ingest → \(store) in \(format(ingested.seconds, digits: 1)) s")
        guard let file = fopen(stamp, "w") else { throw BenchmarkFailure("cannot write \(stamp)") }
        fputs(identity, file)
        fclose(file)
    }

    /// A binary's size and modification time: a rebuilt navlog ingests anew.
    private static func identity(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "" }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return "\(path) \(info.st_size) \(modified.tv_sec).\(modified.tv_nsec)\n"
    }

    /// Rows of kind `screen` in an `export screens --with-marks` CSV: the
    /// rows `export screens` writes (a row's kind is its last field).
    static func screenRows(_ csv: String) throws(BenchmarkFailure) -> Int {
        guard let file = fopen(csv, "rb") else { throw BenchmarkFailure("cannot open \(csv)") }
        defer { fclose(file) }
        let suffix = Array(",screen\n".utf8)
        var line: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(line) }
        var rows = 0
        while true {
            let length = getline(&line, &capacity, file)
            if length < 0 { break }
            guard let line, length >= suffix.count else { continue }
            var matches = true
            for k in 0..<suffix.count where UInt8(bitPattern: line[length - suffix.count + k]) != suffix[k] {
                matches = false
                break
            }
            if matches { rows += 1 }
        }
        return rows
    }
}
