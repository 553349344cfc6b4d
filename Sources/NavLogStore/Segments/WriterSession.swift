import NavLogCore

/// What the writer keeps of one session under way (schemas/segment-store.md
/// §8): its key, last seq, position, chain and state, and the lines it has
/// accepted for the commit being gathered.
final class WriterSession {
    let key: SessionKey
    /// The last accepted seq (stored or pending; 0 when none).
    var lastSeq: Int
    /// Events stored (pending ones not counted).
    var count: Int
    /// The chain hash at ``count``.
    var chain: UInt64
    /// The state after ``count`` events.
    var state: NavigationProjector
    /// The last stored seq (the pending lines follow it).
    var storedSeq: Int
    /// Pending lines: where each is in the writer's arena, and its seq.
    var pending: [(start: Int, length: Int, seq: Int)] = []

    init(key: SessionKey, lastSeq: Int = 0, count: Int = 0, chain: UInt64 = 0, state: NavigationProjector) {
        self.key = key
        self.lastSeq = lastSeq
        self.count = count
        self.chain = chain
        self.state = state
        storedSeq = lastSeq
    }

    /// Reads back what the writer needs of a session from the store: from
    /// its last checkpoint (or its start) through its last stored event.
    /// A session not stored comes back empty.
    static func resume(_ key: SessionKey, from catalog: SegmentCatalog) throws(SegmentStoreError) -> WriterSession {
        guard let replay = try catalog.replay(key) else {
            return WriterSession(key: key, state: NavigationProjector(session: key.string))
        }
        return WriterSession(key: key, lastSeq: replay.lastSeq, count: replay.position, chain: replay.chain, state: replay.state)
    }

    /// The stored line of this session at `seq`, or `nil` when none is stored.
    func storedLine(seq: Int, in catalog: SegmentCatalog) throws(SegmentStoreError) -> [UInt8]? {
        var fold = SessionFold()
        var found: [UInt8]?
        try catalog.forEachLine(of: key) { line, _ in
            guard let lineSeq = fold.facts(line)?.seq else { return true }
            if lineSeq == seq { found = Array(line) }
            return lineSeq < seq
        }
        return found
    }
}
