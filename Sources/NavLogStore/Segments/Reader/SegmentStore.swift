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
    private var lock: OpenFile?
    /// The manifest's minor version (§3): 0 for a store without `COMMITTED`.
    public private(set) var minorVersion: Int = Int(SegmentFormat.minorVersion)
    /// Called when a writer opening the store cut a torn tail aside (§9.1),
    /// as it happens: a command says so on standard error.
    public var onTornTailCut: ((SegmentRecovery) -> Void)?

    private init(path: String, lock: OpenFile?) {
        self.path = DirectoryPath.trimmed(path)
        self.lock = lock
    }

    /// Whether this object holds the store's lock.
    public var isWriter: Bool { lock != nil }

    /// Creates a store in `path` (made when absent; it must hold no store
    /// yet) and returns it locked for writing. The manifest is written last:
    /// to a temporary name, synced, renamed, and the directory synced.
    public static func create(at path: String) throws(SegmentStoreError) -> SegmentStore {
        let directory: VersionOneStore
        do { directory = try VersionOneStore(directory: path, create: true) } catch { throw .io(error) }
        let store = SegmentStore(path: directory.directory, lock: nil)
        if OpenFile.exists(store.manifestPath) { throw .alreadyExists(path: store.path) }
        try store.takeLock()
        do { try DurablePointFile.create(store: store.path, point: DurablePoint()) } catch { throw .io(error) }
        try store.writeManifest()
        return store
    }

    /// Writes the manifest of this build's version: to a temporary name,
    /// synced, renamed, the directory synced (§3).
    func writeManifest() throws(SegmentStoreError) {
        do { try WholeFile.replace(manifestPath, with: Array(SegmentFormat.manifestLine.utf8)) } catch { throw .io(error) }
        minorVersion = Int(SegmentFormat.minorVersion)
    }

    /// Opens an existing store; with `writing`, takes its lock first (a
    /// second writer fails at once with ``SegmentStoreError/locked(store:)``).
    /// Refuses a manifest of another major version.
    /// A store whose manifest is missing or unreadable while it holds
    /// segments or a durable point is damaged (§3, §9.1), not "not a store".
    public static func open(at path: String, writing: Bool = false) throws(SegmentStoreError) -> SegmentStore {
        let store = SegmentStore(path: path, lock: nil)
        func missing(_ why: String) -> SegmentStoreError {
            guard store.holdsStoredData else { return .notAStore(path: store.path) }
            return .damaged(store: store.path, SegmentDamage(file: SegmentFormat.manifestName, offset: 0, kind: .storeFile(why)))
        }
        guard OpenFile.exists(store.manifestPath) else { throw missing("the manifest is missing") }
        let manifest: [UInt8]
        do { manifest = try OpenFile(path: store.manifestPath, mode: .read).read(count: 64, at: 0) } catch { throw .io(error) }
        let text = String(decoding: manifest, as: UTF8.self)
        guard text.hasPrefix("navlog-store "), text.hasSuffix("\n") else { throw missing("the manifest is not a navlog-store line") }
        let version = String(text.dropFirst("navlog-store ".count).dropLast())
        let parts = version.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.first == Substring(String(SegmentFormat.majorVersion)) else {
            if store.holdsStoredData, parts.count != 2 || !parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) {
                throw missing("the manifest's version \"\(version)\" is not a version")
            }
            throw .unsupportedVersion(path: store.path, version: version)
        }
        guard parts.count == 2, let minor = Int(parts[1]) else { throw missing("the manifest's version \"\(version)\" is not a version") }
        store.minorVersion = minor
        if writing { try store.takeLock() }
        return store
    }

    /// Opens a store for `navlog repair` (its lock taken) whatever its
    /// manifest says, as long as it is of this major version or has none.
    public static func openForRepair(at path: String) throws(SegmentStoreError) -> SegmentStore {
        do { return try open(at: path, writing: true) } catch {
            guard case .damaged = error else { throw error }
        }
        let store = SegmentStore(path: path, lock: nil)
        store.minorVersion = -1
        try store.takeLock()
        return store
    }

    /// Whether the manifest must be written again (a repair of a store that lost it).
    public var lacksManifest: Bool { minorVersion < 0 }

    /// Whether the directory holds a segment or a durable point past commit 0:
    /// then it is a store, whatever its manifest says.
    var holdsStoredData: Bool {
        if (try? segmentNumbers())?.isEmpty == false { return true }
        if case .point(let point)? = try? DurablePointFile.read(store: path) { return point.commit > 0 }
        return false
    }

    /// Releases the lock (a reader stays usable).
    public func releaseLock() {
        lock?.close()
        lock = nil
    }

    private func takeLock() throws(SegmentStoreError) {
        let file: OpenFile
        do { file = try OpenFile(path: path + "/" + SegmentFormat.lockName, mode: .readWrite) } catch { throw .io(error) }
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
        let path = DirectoryPath.trimmed(path)
        return OpenFile.exists(path + "/" + SegmentFormat.manifestName) || SegmentStore(path: path, lock: nil).holdsStoredData
    }

    /// The path of segment `number`.
    public func segmentPath(_ number: Int) -> String { path + "/" + SegmentFormat.segmentName(number) }

    /// The segments' numbers, ascending.
    public func segmentNumbers() throws(SegmentStoreError) -> [Int] {
        do { return try DirectoryListing.names(in: path).compactMap(SegmentFormat.segmentNumber).sorted() } catch { throw .io(error) }
    }

    /// Names in the directory the store does not know (reported by verify, §3).
    public func unknownNames() throws(SegmentStoreError) -> [String] {
        do {
            return try DirectoryListing.names(in: path).filter { !SegmentFormat.isOwnName($0) }.sorted()
        } catch { throw .io(error) }
    }
}
