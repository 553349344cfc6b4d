/// Where `ingest` and every `import` write: a segment store, opened for
/// writing (its lock taken before anything is written), or made in a
/// directory that is absent or empty. A version-1 store (``StoreLayout/versionOne``:
/// schemas/store.md) is read-only: it is refused, pointing at
/// `navlog store upgrade`.
///
/// ```swift
/// let store = try StoreTarget.openForWriting(at: "events")
/// ```
public enum StoreTarget {
    /// Why a directory cannot be written to as a store.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// A version-1 store: read-only now.
        case versionOneStore(path: String)
        /// Neither a store nor empty.
        case notEmpty(path: String)
        /// The store could not be made or opened (another writer holds its lock, …).
        case store(SegmentStoreError)

        public var description: String {
            switch self {
            case .versionOneStore(let path):
                "\(path): a version-1 store (one .navlog file per session) is read-only; convert it with `navlog store upgrade \(path)`"
            case .notEmpty(let path): "\(path): not empty and not a navlog store (give a new or empty directory)"
            case .store(let error): error.description
            }
        }
    }

    /// The store at `path` opened for writing, made when `path` is absent or empty.
    public static func openForWriting(at path: String) throws(Failure) -> SegmentStore {
        let path = DirectoryPath.trimmed(path)
        switch InputKind.of(path).storeLayout {
        case .segmentStore:
            do { return try SegmentStore.open(at: path, writing: true) } catch { throw .store(error) }
        case .versionOne: throw .versionOneStore(path: path)
        case .other: throw .notEmpty(path: path)
        case .empty:
            do { return try SegmentStore.create(at: path) } catch {
                // Another writer made it meanwhile: its lock says so.
                guard case .alreadyExists = error else { throw .store(error) }
                do { return try SegmentStore.open(at: path, writing: true) } catch { throw .store(error) }
            }
        }
    }
}
