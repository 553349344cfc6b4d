/// One part of a segment store as a source of sessions: the sessions whose
/// key hash (XXH64 of the id) falls in the part's share of the hash range,
/// as of the commits that were committed when the store was resolved
/// (``SessionSource/resolve(_:)``). A store's parts, read in order, hold each
/// of its sessions once, whole, in session-key order (hash, then id bytes).
public struct SegmentStorePart: Hashable, Sendable {
    /// The store's directory.
    public let store: String
    /// How many commits are read: those committed at resolve time (later ones are not).
    public let commits: Int
    /// This part's number, from 0, and how many parts the store is split into.
    public let part: Int
    public let parts: Int
    /// The store's screen projection, read instead of the events when it covers every commit read.
    package var projection: ScreenProjectionSet?

    /// How many parts a store is split into (so that several threads can read it).
    public static let defaultParts = 16

    public init(store: String, commits: Int, part: Int, parts: Int) {
        self.store = store
        self.commits = commits
        self.part = part
        self.parts = max(1, parts)
    }

    /// The smallest hash of the part.
    var lowestHash: UInt64 { UInt64(part) &* Self.step(parts) }

    /// Whether a session with key hash `hash` belongs to a later part.
    func isPast(_ hash: UInt64) -> Bool {
        part < parts - 1 && hash >= UInt64(part + 1) &* Self.step(parts)
    }

    private static func step(_ parts: Int) -> UInt64 { UInt64.max / UInt64(parts) &+ 1 }
}
