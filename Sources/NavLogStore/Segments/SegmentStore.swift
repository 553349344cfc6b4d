#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A segment store's directory (schemas/segment-store.md §3): the manifest,
/// the lock, and the numbered segments. A store opened for writing holds the
/// lock until it is released (or the object goes away).
///
/// ```swift
/// let store = try SegmentStore.create(at: "events")       // holds the lock
/// let reader = try SegmentReader(store: SegmentStore.open(at: "events"))
/// ```
public final class SegmentStore {
    /// The directory.
    public let path: String
    /// The lock file, held (`flock`) while this object writes.
    private var lock: LogFile?

    private init(path: String, lock: LogFile?) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        self.lock = lock
    }

    /// Whether this object holds the store's lock.
    public var isWriter: Bool { lock != nil }

    /// Creates a store in `path` (made when absent; it must hold no store
    /// yet) and returns it locked for writing. The manifest is written last:
    /// to a temporary name, synced, renamed, and the directory synced.
    public static func create(at path: String) throws(SegmentStoreError) -> SegmentStore {
        let directory: Store
        do { directory = try Store(directory: path, create: true) } catch { throw .io(error) }
        let store = SegmentStore(path: directory.directory, lock: nil)
        if LogFile.exists(store.manifestPath) { throw .alreadyExists(path: store.path) }
        try store.takeLock()
        let tmp = store.manifestPath + ".tmp"
        do {
            let file = try LogFile(path: tmp, mode: .readWrite)
            try file.truncate(to: 0)
            try file.write(Array(SegmentFormat.manifestLine.utf8), at: 0)
            try file.sync()
            file.close()
        } catch { throw .io(error) }
        guard rename(tmp, store.manifestPath) == 0 else {
            throw .io(LogError.io(path: store.manifestPath, call: "rename", errno: errno))
        }
        do { try LogFile.syncDirectory(containing: store.manifestPath) } catch { throw .io(error) }
        return store
    }

    /// Opens an existing store; with `writing`, takes its lock first (a
    /// second writer fails at once with ``SegmentStoreError/locked(store:)``).
    /// Refuses a manifest of another major version.
    public static func open(at path: String, writing: Bool = false) throws(SegmentStoreError) -> SegmentStore {
        let store = SegmentStore(path: path, lock: nil)
        guard LogFile.exists(store.manifestPath) else { throw .notAStore(path: store.path) }
        let manifest: [UInt8]
        do { manifest = try LogFile(path: store.manifestPath, mode: .read).read(count: 64, at: 0) } catch { throw .io(error) }
        let text = String(decoding: manifest, as: UTF8.self)
        guard text.hasPrefix("navlog-store "), text.hasSuffix("\n") else { throw .notAStore(path: store.path) }
        let version = String(text.dropFirst("navlog-store ".count).dropLast())
        guard version.split(separator: ".").first == Substring(String(SegmentFormat.majorVersion)) else {
            throw .unsupportedVersion(path: store.path, version: version)
        }
        if writing { try store.takeLock() }
        return store
    }

    /// Releases the lock (a reader stays usable).
    public func releaseLock() {
        lock?.close()
        lock = nil
    }

    private func takeLock() throws(SegmentStoreError) {
        let file: LogFile
        do { file = try LogFile(path: path + "/" + SegmentFormat.lockName, mode: .readWrite) } catch { throw .io(error) }
        do { try file.lockExclusive() } catch {
            throw error.kind == .locked ? .locked(store: path) : .io(error)
        }
        lock = file
    }

    var manifestPath: String { path + "/" + SegmentFormat.manifestName }

    /// Whether `path` is a directory holding a segment store's manifest (a
    /// directory without one is a version-1 store, or not a store; one with
    /// it may still be of an unsupported version: ``open(at:writing:)`` says).
    public static func isSegmentStore(_ path: String) -> Bool {
        LogFile.exists((path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path) + "/" + SegmentFormat.manifestName)
    }

    /// The path of segment `number`.
    public func segmentPath(_ number: Int) -> String { path + "/" + SegmentFormat.segmentName(number) }

    /// The segments' numbers, ascending.
    public func segmentNumbers() throws(SegmentStoreError) -> [Int] {
        do { return try DirectoryListing.names(in: path).compactMap(SegmentFormat.segmentNumber).sorted() } catch { throw .io(error) }
    }

    /// Names in the directory the store does not know (reported by verify, §3).
    public func unknownNames() throws(SegmentStoreError) -> [String] {
        let known: Set<String> = [SegmentFormat.manifestName, SegmentFormat.lockName]
        do {
            return try DirectoryListing.names(in: path).filter { name in
                !known.contains(name) && SegmentFormat.segmentNumber(name) == nil && !name.contains(SegmentFormat.segmentSuffix + ".torn-")
                    && ScreenProjectionFormat.segmentNumber(name) == nil
            }.sorted()
        } catch { throw .io(error) }
    }
}
