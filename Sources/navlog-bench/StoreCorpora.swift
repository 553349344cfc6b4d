#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogStore

/// The corpora of issue 25's benchmark, made by `navlog generate` and kept
/// in a cache directory between runs (a million sessions take a while).
struct StoreCorpus {
    let name: String
    let sessions: Int
    /// `--events-per-session`: a mean or a range.
    let eventsPerSession: String
    let live: Int
    let seed: Int

    /// A: 500 × ~2,000, 64 under way; B: the same, 256; C: 100,000 × ~10,
    /// 1,000; D: 1,000,000 × 2–8, 64.
    static let all = [
        StoreCorpus(name: "A", sessions: 500, eventsPerSession: "2000", live: 64, seed: 1),
        StoreCorpus(name: "B", sessions: 500, eventsPerSession: "2000", live: 256, seed: 2),
        StoreCorpus(name: "C", sessions: 100_000, eventsPerSession: "10", live: 1_000, seed: 3),
        StoreCorpus(name: "D", sessions: 1_000_000, eventsPerSession: "2-8", live: 64, seed: 4),
    ]

    /// The shape, for the table.
    var shape: String { "\(sessions) × \(eventsPerSession), \(live) under way" }

    /// The file's name says everything it was made from, so a changed corpus is made anew.
    var fileName: String { "\(name)-\(sessions)x\(eventsPerSession)-live\(live)-seed\(seed).ndjson" }

    /// The corpus's path in `directory`, made by `navlog` there first when missing.
    func path(in directory: String, navlog: String) throws(BenchmarkFailure) -> String {
        let path = directory + "/" + fileName
        if access(path, R_OK) == 0 { return path }
        print("generating corpus \(name) (\(shape)) into \(path) …")
        let partial = path + ".partial"
        // `live` 0: sessions one after another (no --interleave).
        let interleave = live > 0 ? ["--interleave", "--live-sessions", "\(live)"] : []
        _ = try ChildProcess.runChecked(navlog, ["generate", "--sessions", "\(sessions)", "--events-per-session", eventsPerSession]
                                        + interleave + ["--seed", "\(seed)", "-o", partial])
        guard rename(partial, path) == 0 else { throw BenchmarkFailure("cannot rename \(partial) to \(path)") }
        return path
    }
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
