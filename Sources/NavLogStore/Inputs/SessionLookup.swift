import NavLogCore

/// One session of a store, addressed as `STORE --session ID` (docs/commands.md):
/// the store may be a segment store (a directory with the `navlog-store`
/// manifest, schemas/segment-store.md) or a version-1 store
/// (``StoreLayout/versionOne``, schemas/store.md); any other directory is not a store.
///
/// ```swift
/// switch try SessionLookup.open(store: "events", session: "s-1") {
/// case .log(let path): ...                     // version 1: the session's log
/// case .segments(let session): try session.state(at: .end)
/// }
/// ```
public enum SessionLookup {
    /// Where the session is.
    public enum Found {
        /// A version-1 store: the path of the session's `.navlog` log.
        case log(path: String)
        /// A segment store: the session, read through the store's index.
        case segments(StoredSession)
    }

    /// Finds session `id` in the store at `path`.
    /// Throws ``SessionLookupError/noSession(store:session:)`` when the store
    /// holds no event of it.
    public static func open(store path: String, session id: String) throws(SessionLookupError) -> Found {
        let store = DirectoryPath.trimmed(path)
        let kind = InputKind.of(store)
        if kind == .directory(.segmentStore) {
            let session: StoredSession
            do { session = try StoredSession(store: store, session: id) } catch { throw .segments(error) }
            let exists: Bool
            do { exists = try session.exists } catch { throw .segments(error) }
            guard exists else { throw .noSession(store: store, session: id) }
            return .segments(session)
        }
        // A missing directory is the listing's error below; another directory must be a version-1 store.
        switch kind {
        case .missing, .directory(.versionOne): break
        default: throw .notAStore(store: store)
        }
        let found: String?
        do throws(FileError) {
            let logs = try VersionOneStore(directory: store)
            // A log not under its session's name (renamed by hand) is still found, as `sessions` lists it.
            var path = try logs.path(forSession: id)
            if path == nil {
                for entry in try logs.entries() where entry.session.map({ SessionID.same($0, id) }) == true {
                    path = entry.path
                    break
                }
            }
            found = path
        } catch { throw .log(error) }
        guard let found else { throw .noSession(store: store, session: id) }
        return .log(path: found)
    }
}

/// Why a session of a store cannot be read: one line saying what and where.
public enum SessionLookupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store holds no event of the session.
    case noSession(store: String, session: String)
    /// The directory is not a store (``StoreLayout``).
    case notAStore(store: String)
    /// The segment store cannot be read.
    case segments(SegmentStoreError)
    /// The version-1 store cannot be read.
    case log(FileError)

    public var description: String {
        switch self {
        case .noSession(let store, let session): "\(store): no session \"\(session)\""
        case .notAStore(let store): StoreLayout.notAStoreMessage(store)
        case .segments(let error): error.description
        case .log(let error): error.description
        }
    }
}
