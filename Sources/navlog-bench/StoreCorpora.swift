#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogStore

/// The corpora of the store and analytics benchmarks, made by `navlog
/// generate` and kept in a cache directory between runs (a million
/// sessions take a while).
struct StoreCorpus {
    let name: String
    let sessions: Int
    /// `--events-per-session`: a mean, a range, or `heavy`.
    let eventsPerSession: String
    let live: Int
    let seed: Int
    /// `--style`: `navlog` (canonical lines) or `producer` (the same events
    /// as other producers write them).
    var style = "navlog"
    /// `--screens N`, when set.
    var screens: Int? = nil

    /// A: 500 × ~2,000, 64 under way; B: the same, 256; C: 100,000 × ~10,
    /// 1,000; D: 1,000,000 × 2–8, 64; A′–D′: their events in producer
    /// style; E: 1,000,000 heavy-tailed sessions (median 3 events, a third
    /// with one, a few with hundreds) over 20 screens, 1,000 under way.
    static let canonical = [
        StoreCorpus(name: "A", sessions: 500, eventsPerSession: "2000", live: 64, seed: 1),
        StoreCorpus(name: "B", sessions: 500, eventsPerSession: "2000", live: 256, seed: 2),
        StoreCorpus(name: "C", sessions: 100_000, eventsPerSession: "10", live: 1_000, seed: 3),
        StoreCorpus(name: "D", sessions: 1_000_000, eventsPerSession: "2-8", live: 64, seed: 4),
    ]
    static let all = canonical + canonical.map(\.producerStyle) + [
        StoreCorpus(name: "E", sessions: 1_000_000, eventsPerSession: "heavy", live: 1_000, seed: 6, screens: 20),
    ]

    /// The same events written as other producers write them: `A` → `A'`.
    var producerStyle: StoreCorpus {
        StoreCorpus(name: name + "'", sessions: sessions, eventsPerSession: eventsPerSession, live: live, seed: seed,
                           style: "producer", screens: screens)
    }

    /// The corpora named in `list` (`A,B,A',E`), or `fallback` when `list` is nil.
    static func named(_ list: String?, fallback: [StoreCorpus]) throws(BenchmarkFailure) -> [StoreCorpus] {
        guard let list else { return fallback }
        let wanted = list.split(separator: ",").map { $0.uppercased() }
        for name in wanted where !all.contains(where: { $0.name == name }) {
            throw BenchmarkFailure("no corpus \(name) (there are \(all.map(\.name).joined(separator: ",")))")
        }
        return all.filter { wanted.contains($0.name) }
    }

    /// The shape, for the table.
    var shape: String {
        "\(sessions) × \(eventsPerSession)" + (screens.map { ", \($0) screens" } ?? "") + ", \(live) under way"
            + (style == "navlog" ? "" : ", \(style) style")
    }

    /// The file's name says everything it was made from, so a changed corpus is made anew.
    var fileName: String {
        let stem = name.replacing("'", with: "-prime")
        let extras = (screens.map { "-screens\($0)" } ?? "") + (style == "navlog" ? "" : "-\(style)")
        return "\(stem)-\(sessions)x\(eventsPerSession)-live\(live)-seed\(seed)\(extras).ndjson"
    }

    /// The corpus's path in `directory`, made by `navlog` there first when missing.
    func path(in directory: String, navlog: String) throws(BenchmarkFailure) -> String {
        let path = directory + "/" + fileName
        if access(path, R_OK) == 0 { return path }
        print("generating corpus \(name) (\(shape)) into \(path) …")
        let partial = path + ".partial"
        // `live` 0: sessions one after another (no --interleave).
        let interleave = live > 0 ? ["--interleave", "--live-sessions", "\(live)"] : []
        let screenOption = screens.map { ["--screens", "\($0)"] } ?? []
        _ = try ChildProcess.runChecked(navlog, ["generate", "--sessions", "\(sessions)", "--events-per-session", eventsPerSession]
                                        + interleave + screenOption + ["--style", style, "--seed", "\(seed)", "-o", partial])
        guard rename(partial, path) == 0 else { throw BenchmarkFailure("cannot rename \(partial) to \(path)") }
        return path
    }
}

/// Bytes of the screen projection in a store (`du` of its `.views` files).
func projectionBytes(_ store: String) -> Int {
    ((try? DirectoryListing.names(in: store)) ?? []).filter { $0.hasSuffix(".views") }
        .reduce(0) { $0 + allocatedBytes(store + "/" + $1) }
}

/// Bytes allocated on disk for `path` and, for a directory, everything
/// under it (`du`'s figure: blocks, not lengths).
func allocatedBytes(_ path: String) -> Int {
    var info = stat()
    guard lstat(path, &info) == 0 else { return 0 }
    var total = Int(info.st_blocks) * 512
    guard (info.st_mode & S_IFMT) == S_IFDIR else { return total }
    for name in (try? DirectoryListing.names(in: path)) ?? [] { total += allocatedBytes(path + "/" + name) }
    return total
}

/// Removes `path` and everything under it (a store between runs).
func removeRecursively(_ path: String) {
    var info = stat()
    guard lstat(path, &info) == 0 else { return }
    guard (info.st_mode & S_IFMT) == S_IFDIR else { unlink(path); return }
    for name in (try? DirectoryListing.names(in: path)) ?? [] { removeRecursively(path + "/" + name) }
    rmdir(path)
}
