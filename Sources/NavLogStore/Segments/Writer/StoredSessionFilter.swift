/// Whether a session may already be stored, as a writer asks it of every
/// session it has not seen yet in its run (schemas/segment-store.md §8):
/// exactly, by a set of their hashes, for the sessions of the commits the
/// writer made itself; by the Bloom filters of the commits written before
/// (and of its own once the set is full). `true` means "read it back".
struct StoredSessionFilter {
    /// The most hashes the set keeps (about 32 MiB); past it, the commits so far are tested by their filters.
    static let maxHashes = 1 << 21
    private var hashes = Set<UInt64>()
    /// The catalog's commits `0..<filtered` are tested by their filters.
    private var filtered: Int

    init(catalog: SegmentCatalog) {
        filtered = catalog.commits.count
    }

    /// Whether a session with id hash `hash` may be in a committed commit.
    func mayHold(_ hash: UInt64, in catalog: SegmentCatalog) -> Bool {
        if hashes.contains(hash) { return true }
        for ref in catalog.commits[..<filtered] where catalog.index(ref).bloom.mayContain(hash) { return true }
        return false
    }

    /// Records the sessions of the commit just appended to `catalog`.
    mutating func committed(_ sessions: [WriterSession], in catalog: SegmentCatalog) {
        guard hashes.count + sessions.count <= Self.maxHashes else {
            hashes.removeAll()
            filtered = catalog.commits.count
            return
        }
        for session in sessions { hashes.insert(session.key.hash) }
    }
}
