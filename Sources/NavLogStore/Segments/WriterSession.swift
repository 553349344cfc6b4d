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
    var state: NavigationState
    /// The last stored seq (the pending lines follow it).
    var storedSeq: Int
    /// Pending lines: where each is in the writer's arena, and its seq.
    var pending: [(start: Int, length: Int, seq: Int)] = []

    init(key: SessionKey, lastSeq: Int = 0, count: Int = 0, chain: UInt64 = 0, state: NavigationState) {
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
        let session = WriterSession(key: key, state: NavigationState(session: key.string))
        guard !catalog.commits.isEmpty else { return session }
        var from = 0
        var skipThrough = 0
        for (commit, ref) in catalog.checkpoints(of: key).reversed() {
            let checkpoint = try catalog.readCheckpoint(commit: commit, ref)
            guard checkpoint.key == key, let state = checkpoint.state() else { continue }
            (session.count, session.chain, session.state, session.lastSeq) = (checkpoint.position, checkpoint.chain, state, checkpoint.seq)
            from = commit
            skipThrough = checkpoint.seq
            break
        }
        var fold = SessionFold()
        try catalog.forEachLine(of: key, fromCommit: from) { line, _ in
            guard let seq = fold.facts(line)?.seq, seq > skipThrough else { return true }
            fold.fold(line, into: &session.state)
            session.chain = SessionChain.link(session.chain, line: line)
            session.count += 1
            session.lastSeq = seq
            return true
        }
        session.storedSeq = session.lastSeq
        return session
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
