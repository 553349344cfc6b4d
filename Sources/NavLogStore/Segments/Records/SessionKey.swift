/// A session's key in a segment store (schemas/segment-store.md §2): the
/// XXH64 of its id's bytes, then the bytes; ordered by the hash as an
/// unsigned integer, then by the bytes. Lines within a commit are in this
/// order, so one session's run is contiguous.
public struct SessionKey: Hashable, Comparable, Sendable {
    /// XXH64 (seed 0) of the id's UTF-8 bytes.
    public let hash: UInt64
    /// The id's UTF-8 bytes: ids are told apart by exact bytes.
    public let id: [UInt8]

    public init(id: [UInt8]) {
        self.id = id
        hash = XXHash64.hash(id)
    }

    public init(_ id: String) { self.init(id: Array(id.utf8)) }

    /// The id as text.
    public var string: String { String(decoding: id, as: UTF8.self) }

    public static func < (a: SessionKey, b: SessionKey) -> Bool {
        if a.hash != b.hash { return a.hash < b.hash }
        return a.id.lexicographicallyPrecedes(b.id)
    }
}
