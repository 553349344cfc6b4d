/// Everything that can go wrong with a segment store, as one typed error
/// that prints as one line saying what and where
/// (schemas/segment-store.md).
public enum SegmentStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The directory has no manifest: not a segment store.
    case notAStore(path: String)
    /// The manifest names a format this build does not read.
    case unsupportedVersion(path: String, version: String)
    /// A store cannot be created where something already is.
    case alreadyExists(path: String)
    /// Another writer holds the store's lock (§3).
    case locked(store: String)
    /// A system call or a file failed.
    case io(FileError)
    /// A segment's bytes are damaged (a reader met it on its way): the
    /// damage, named by the segment's path.
    case corrupt(SegmentDamage)
    /// The store is damaged at or before its durable point, or a file of it
    /// is missing (schemas/segment-store.md §9.1): readers answer nothing,
    /// writers write nothing, until `navlog repair STORE`.
    case damaged(store: String, SegmentDamage)
    /// An event at a stored seq with different content (§8).
    case conflict(session: String, seq: Int)
    /// An event whose seq is below the session's last stored seq, where none is stored (§8).
    case seqNotIncreasing(session: String, seq: Int, last: Int)
    /// An event the writer cannot store (bad seq, line, or size).
    case invalidEvent(session: String, seq: Int, reason: String)
    /// liblz4 failed on bytes the writer made.
    case compression(LZ4FrameError)
    /// The writer was used after ``SegmentWriter/close()``.
    case closed(store: String)

    /// Damage a reader tells in words only.
    static func corrupt(segment: String, offset: Int64, reason: String) -> SegmentStoreError {
        .corrupt(SegmentDamage(file: segment, offset: offset, kind: .frame(reason)))
    }

    /// Whether the error is damage of the store's bytes (a reader's "no",
    /// exit 1) rather than trouble reaching them.
    public var isDamage: Bool {
        switch self {
        case .corrupt, .damaged: true
        case .io(let error): error.isCorruption
        default: false
        }
    }

    /// What is wrong without where and without the advice, for a list of
    /// problems that gives the place itself (`verify`).
    public var reason: String {
        if case .corrupt(let damage) = self { damage.kind.description } else { description }
    }

    /// The store a segment's path is in (the path itself when it is no segment's).
    private static func store(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), SegmentFormat.segmentNumber(String(path[path.index(after: slash)...])) != nil else { return path }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public var description: String {
        switch self {
        case .notAStore(let path): "\(path): not a navlog segment store (no \(SegmentFormat.manifestName) manifest)"
        case .unsupportedVersion(let path, let version):
            "\(path): store format \(version) is not supported (this build reads \(SegmentFormat.majorVersion).x)"
        case .alreadyExists(let path): "\(path): already exists and is not an empty directory"
        case .locked(let store): "\(store): another writer holds the store's lock"
        case .io(let error): error.description
        case .corrupt(let damage):
            "\(damage): the store is damaged; 'navlog repair \(Self.store(of: damage.file))' sets the damage aside"
        case .damaged(let store, let damage):
            "\(store) is damaged: \(damage); 'navlog repair \(store)' sets the damage aside"
        case .conflict(let session, let seq): "seq \(seq) of session \(session) is stored with different content"
        case .seqNotIncreasing(let session, let seq, let last):
            "seq \(seq) of session \(session) is not stored and is below its last stored seq \(last)"
        case .invalidEvent(let session, let seq, let reason): "seq \(seq) of session \(session): \(reason)"
        case .compression(let error): "compression failed: \(error)"
        case .closed(let store): "\(store): the store's writer was already closed"
        }
    }
}
