import NavLogCore

/// What the writer keeps of one session under way (schemas/segment-store.md
/// §8): its key, last seq and position, the lines it has accepted for the
/// commit being gathered and, only once the session reaches a checkpoint,
/// its chain and state (a short session is never folded).
///
/// Its fields every line touches are `@exclusivity(unchecked)`: only the
/// writer's (caller's) thread uses a session.
final class WriterSession {
    let key: SessionKey
    /// The last accepted seq (stored or pending; 0 when none).
    @exclusivity(unchecked) var lastSeq: Int
    /// Events stored (pending ones not counted).
    @exclusivity(unchecked) var count: Int
    /// The chain hash at ``count`` when ``folded``.
    var chain: UInt64
    /// The state after ``count`` events when ``folded``.
    var state: NavigationProjector?
    /// Whether ``chain`` and ``state`` are those at ``count``.
    var folded: Bool
    /// The last stored seq (the pending lines follow it).
    @exclusivity(unchecked) var storedSeq: Int
    /// Pending lines: where each is in the writer's arena, its seq and `t`.
    @exclusivity(unchecked) var pending: [(start: Int, length: Int, seq: Int, t: Int64)] = []
    /// The next session held with the same id hash (``WriterSessionTable``).
    @exclusivity(unchecked) var sameHash: WriterSession?

    /// A session with nothing stored.
    init(key: SessionKey) {
        self.key = key
        lastSeq = 0
        count = 0
        chain = 0
        state = nil
        folded = false
        storedSeq = 0
    }

    private init(key: SessionKey, replay: SegmentCatalog.Replay) {
        self.key = key
        lastSeq = replay.lastSeq
        count = replay.position
        chain = replay.chain
        state = replay.state
        folded = true
        storedSeq = replay.lastSeq
    }

    /// Reads back what the writer needs of a session from the store: from
    /// its last checkpoint (or its start) through its last stored event.
    /// A session not stored comes back empty.
    static func resume(_ key: SessionKey, from catalog: SegmentCatalog) throws(SegmentStoreError) -> WriterSession {
        guard let replay = try catalog.replay(key) else { return WriterSession(key: key) }
        return WriterSession(key: key, replay: replay)
    }

    /// Whether the commit being gathered folds this session's pending
    /// lines: when a checkpoint (a multiple of `interval`) falls among them,
    /// or when the session is past its first checkpoint and folded to date
    /// (a long session stays folded rather than be read back at its next).
    func foldsInCommit(interval: Int) -> Bool {
        count / interval != (count + pending.count) / interval || (folded && count >= interval)
    }

    /// Brings ``chain`` and ``state`` to ``count``: the empty state, or the
    /// stored events read back from the session's last checkpoint.
    func catchUp(from catalog: SegmentCatalog) throws(SegmentStoreError) {
        guard !folded else { return }
        if count == 0 {
            chain = 0
            state = NavigationProjector(session: key.string)
        } else {
            guard let replay = try catalog.replay(key, toPosition: count), replay.position == count else {
                throw .corrupt(segment: catalog.store.path, offset: 0,
                               reason: "session \(key.string): \(count) events were stored, fewer read back")
            }
            chain = replay.chain
            state = replay.state
        }
        folded = true
    }

    /// Stored lines read back for duplicate checks: every stored line with
    /// a seq in ``readBackSeqs``, in seq order. A cache, so that a re-sent
    /// session is read back once per batch rather than once per event; the
    /// writer empties it when all sessions' read-back bytes pass its budget.
    private(set) var readBack: [(seq: Int, line: [UInt8])] = []
    private var readBackSeqs: ClosedRange<Int>?
    /// The bytes of the lines in ``readBack``.
    private(set) var readBackBytes = 0

    /// The most bytes of stored lines one read back keeps.
    static let readBackBatch = 256 << 10

    /// The stored line of this session at `seq`, or `nil` when none is
    /// stored: from ``readBack`` when it covers `seq`, else read back from
    /// the store with the lines after it (up to ``readBackBatch`` bytes).
    func storedLine(seq: Int, in catalog: SegmentCatalog) throws(SegmentStoreError) -> [UInt8]? {
        if readBackSeqs?.contains(seq) != true { try readBack(from: seq, in: catalog) }
        guard readBackSeqs?.contains(seq) == true else { return nil }
        var lo = 0, hi = readBack.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if readBack[mid].seq < seq { lo = mid + 1 } else { hi = mid }
        }
        return lo < readBack.count && readBack[lo].seq == seq ? readBack[lo].line : nil
    }

    /// Fills ``readBack`` with the stored lines from `seq` on.
    private func readBack(from seq: Int, in catalog: SegmentCatalog) throws(SegmentStoreError) {
        dropReadBack()
        var fold = SessionFold()
        var last: Int?
        try catalog.forEachLine(of: key) { line, _ in
            guard let lineSeq = fold.facts(line)?.seq else { return true }
            guard lineSeq >= seq else { return true }
            readBack.append((lineSeq, Array(line)))
            readBackBytes += line.count
            last = lineSeq
            return readBackBytes < Self.readBackBatch
        }
        if let last { readBackSeqs = seq...last }
    }

    /// Forgets what was read back.
    func dropReadBack() {
        readBack = []
        readBackSeqs = nil
        readBackBytes = 0
    }
}
