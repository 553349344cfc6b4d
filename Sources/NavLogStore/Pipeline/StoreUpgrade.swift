#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog store upgrade DIR`: converts a version-1 store (one `.navlog`
/// file per session, ``StoreLayout/versionOne``, schemas/store.md) into a
/// segment store in place, crash-safe (schemas/segment-store.md §10):
///
/// 1. the new store is built in a sibling directory `.NAME.navlog-upgrade`
///    by ingesting every log (their events, seqs and lines as they are),
///    synced, and verified whole;
/// 2. `DIR` is renamed to `.NAME.navlog-v1`, then the new store to `DIR`
///    (the parent directory synced after each rename);
/// 3. the old logs stay in `.NAME.navlog-v1`, unchanged, and the report
///    names it: nothing is deleted but what this job itself built.
///
/// A run stopped at any point is finished or restarted by running it
/// again: with `DIR` a version-1 store, a leftover new store is a partial
/// build and is started over; with `DIR` absent, the new store is complete
/// (the old store was only moved once it was) and is renamed into place;
/// with `DIR` a segment store, there is nothing left to do.
public enum StoreUpgrade {
    /// What an upgrade did.
    public struct Report: Sendable {
        /// Logs converted (0 when the run only finished an earlier one).
        public var logs = 0
        /// Events stored, and sessions.
        public var events = 0
        public var sessions = 0
        /// Whether this run finished one stopped earlier, or found the store already upgraded.
        public var finishedEarlierRun = false
        /// Where the old store's logs are kept (``workPaths(for:)``), when they are.
        public var keptOldDirectory: String?
    }

    /// Why an upgrade did not happen.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Nothing to upgrade at the path.
        case notAVersionOneStore(path: String)
        /// A log could not be read whole, or the new store did not verify; nothing was changed.
        case damaged(path: String, reason: String)
        /// A work directory of the job holds files the job did not write (or
        /// the logs an earlier upgrade kept); nothing was changed.
        case foreignFiles(path: String, name: String)
        /// The new store could not be written, or a rename or deletion failed.
        case store(SegmentStoreError)

        public var description: String {
            switch self {
            case .notAVersionOneStore(let path):
                "\(path): not a version-1 store (only logs named <slug>-<hash>.navlog and their side files); nothing was changed"
            case .foreignFiles(let path, let name):
                "\(path): holds \(name); move it away and run the upgrade again (nothing was changed)"
            case .damaged(let path, let reason):
                "\(path): \(reason); nothing was changed (repair the log with `navlog repair`, then run the upgrade again)"
            case .store(let error): error.description
            }
        }
    }

    /// The sibling directories of the job: the new store being built, and the old store once moved aside.
    public static func workPaths(for path: String) -> (building: String, old: String) {
        let trimmed = DirectoryPath.trimmed(path)
        let slash = trimmed.lastIndex(of: "/")
        let parent = slash.map { String(trimmed[...$0]) } ?? ""
        let name = slash.map { String(trimmed[trimmed.index(after: $0)...]) } ?? trimmed
        return (parent + "." + name + ".navlog-upgrade", parent + "." + name + ".navlog-v1")
    }

    /// Upgrades the store at `path` (or finishes an upgrade stopped earlier).
    public static func upgrade(at path: String) throws(Failure) -> Report {
        let path = DirectoryPath.trimmed(path)
        let (building, old) = workPaths(for: path)
        var report = Report()
        switch InputKind.of(path).storeLayout {
        case .versionOne:
            if OpenFile.exists(old) { throw .foreignFiles(path: old, name: "the logs an earlier upgrade kept") }
            if OpenFile.exists(building) { try removeTree(building) }
            try build(from: path, into: building, report: &report)
            try move(path, to: old)
            try move(building, to: path)
        case .empty where !OpenFile.exists(path) && OpenFile.exists(old) && OpenFile.exists(building):
            // Stopped between the two renames: the new store is complete.
            report.finishedEarlierRun = true
            try move(building, to: path)
        case .segmentStore:
            report.finishedEarlierRun = true
        default:
            throw .notAVersionOneStore(path: path)
        }
        if OpenFile.exists(old) { report.keptOldDirectory = old }
        return report
    }

    /// Ingests every log of the version-1 store at `path` into a new store at `building`, synced.
    private static func build(from path: String, into building: String, report: inout Report) throws(Failure) {
        let logs: [String]
        do { logs = try VersionOneStore(directory: path).logPaths() } catch { throw .store(.io(error)) }
        let store: SegmentStore
        do { store = try SegmentStore.create(at: building) } catch { throw .store(error) }
        var rejection: StoreIngester.Rejection?
        let ingested: StoreIngester.Report
        do {
            ingested = try StoreIngester(store: store).ingest(paths: logs, onReject: { rejection = rejection ?? $0 })
        } catch {
            try? removeTree(building)
            if case .io(let e) = error, e.isCorruption { throw .damaged(path: e.path, reason: e.description) }
            throw .store(error)
        }
        if let rejection {
            try removeTree(building)
            throw .damaged(path: rejection.file, reason: "event \(rejection.line): \(rejection.reason)")
        }
        let verified: SegmentStoreReport
        do { verified = try SegmentVerifier.verify(store: SegmentStore.open(at: building)) } catch { throw .store(error) }
        if let problem = verified.problems.first {
            try removeTree(building)
            throw .damaged(path: building, reason: "the new store did not verify (\(problem)); it was removed")
        }
        do {
            // The new store's names, then its own name in the parent.
            try OpenFile.syncDirectory(containing: building + "/" + SegmentFormat.manifestName)
            try OpenFile.syncDirectory(containing: building)
        } catch { throw .store(.io(error)) }
        report.logs = logs.count
        report.events = ingested.stored
        report.sessions = ingested.sessions
    }

    /// Renames `from` to `to` and syncs their parent directory.
    private static func move(_ from: String, to: String) throws(Failure) {
        do throws(FileError) {
            try FileSystem.rename(from, to: to)
            try OpenFile.syncDirectory(containing: to)
        } catch { throw .store(.io(error)) }
    }

    /// Deletes a store this job built; refuses, deleting nothing, when it
    /// holds a file a store's writer does not make.
    private static func removeTree(_ path: String) throws(Failure) {
        let names: [String]
        do { names = try DirectoryListing.names(in: path) } catch { throw .store(.io(error)) }
        if let foreign = names.first(where: { !SegmentFormat.isOwnName($0) }) {
            throw .foreignFiles(path: path, name: foreign)
        }
        do throws(FileError) {
            for name in names { try FileSystem.remove(path + "/" + name) }
            try FileSystem.removeDirectory(path)
        } catch { throw .store(.io(error)) }
    }
}
