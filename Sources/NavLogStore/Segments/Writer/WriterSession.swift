import NavLogCore

/// What the writer keeps of one session under way (schemas/segment-store.md
/// §8): its key, last seq and position, the lines it has accepted for the
/// commit being gathered and, only once the session reaches a checkpoint,
/// its chain and state (a short session is never folded).
///
/// Its fields every line touches are `@exclusivity(unchecked)`: one thread
/// uses a session at a time — the writer's (caller's), or, for its screen
/// state while its commit is in flight, the thread that follows it there
/// (the writer lands that commit before it touches the state again).
final class WriterSession {
    let key: SessionKey
    /// The last accepted seq (stored or pending; 0 when none).
    @exclusivity(unchecked) var lastSeq: Int
    /// Events stored (pending ones not counted).
    @exclusivity(unchecked) var count: Int
    /// The chain hash at ``count`` when ``folded``.
    @exclusivity(unchecked) var chain: UInt64
    /// The state after ``count`` events when ``folded``.
    @exclusivity(unchecked) var state: NavigationProjector?
    /// Whether ``chain`` and ``state`` are those at ``count``.
    @exclusivity(unchecked) var folded: Bool
    /// The last stored seq (the pending lines follow it).
    @exclusivity(unchecked) var storedSeq: Int
    /// The number of the commit that holds its last stored line (0 when none).
    @exclusivity(unchecked) var lastCommit: UInt64 = 0
    /// Pending lines: where each is in the writer's arena, its seq and `t`.
    @exclusivity(unchecked) var pending: [(start: Int, length: Int, seq: Int, t: Int64)] = []
    /// Whether the store held events of it before the writer's run began
    /// (as far as the writer can tell when it first holds the session).
    let wasStored: Bool
    /// Whether the writer has counted it among the sessions that got an event stored in its run.
    @exclusivity(unchecked) var counted: Bool
    /// The input (``SegmentWriter/startInput()``) of its last accepted line, and that line's seq:
    /// where a line of it without a seq is numbered from, in that input (§8 "Numbering").
    @exclusivity(unchecked) var input = 0
    @exclusivity(unchecked) var inputSeq = 0
    /// Its screen state after its stored events, kept by the projection
    /// (``ScreenProjectionWriter``): `nil` until its first commit with the writer.
    @exclusivity(unchecked) var screens: SessionOccurrences?

    /// A session with nothing stored.
    init(key: SessionKey) {
        self.key = key
        lastSeq = 0
        count = 0
        chain = 0
        state = nil
        folded = false
        storedSeq = 0
        wasStored = false
        counted = false
    }

    /// A session read back without its state: ``catchUp(from:)`` reads it when a checkpoint falls.
    private init(key: SessionKey, replay: SegmentCatalog.Replay, counted: Bool) {
        self.key = key
        lastSeq = replay.lastSeq
        count = replay.position
        chain = 0
        state = nil
        folded = false
        storedSeq = replay.lastSeq
        wasStored = true
        self.counted = counted
        lastCommit = replay.lastCommitNumber
    }

    /// Reads back what the writer needs of a session from the store: its
    /// position and last seq, from its last checkpoint (or its start)
    /// through its last stored event, not folded (a re-sent session whose
    /// events are all duplicates is never folded). A session not stored
    /// comes back empty; one with an event in commit `runStart` or later
    /// (the writer's own, made before it forgot the session) comes back counted.
    static func resume(_ key: SessionKey, from catalog: SegmentCatalog, runStart: UInt64) throws(SegmentStoreError) -> WriterSession {
        // The lines read on the way are kept for the duplicate checks that
        // follow (a re-sent session's), when they all fit in one batch.
        var lines: StoredLines?
        var count = 0
        guard let replay = try catalog.replay(key, folding: false, onLine: { seq, line in
            if lines == nil { lines = StoredLines(from: 1) }
            count += 1
            if !lines!.isFull { lines!.append(seq: seq, line) }
        }) else { return WriterSession(key: key) }
        let session = WriterSession(key: key, replay: replay, counted: replay.lastCommitNumber >= runStart)
        // Kept when every stored line was read (no checkpoint before them) and kept.
        if let lines, replay.position == count, lines.covers(replay.lastSeq) {
            session.readBack = lines
        }
        return session
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

    /// Stored lines read back for duplicate checks (``StoredLines``); `nil`
    /// for nearly every session, so that holding one costs a pointer.
    private var readBack: StoredLines?
    /// The bytes of the lines read back.
    var readBackBytes: Int { readBack?.bytes ?? 0 }

    /// The stored line of this session at `seq`, or `nil` when none is
    /// stored: from the lines read back when they cover `seq`, else read
    /// back from the store with the lines after it.
    func storedLine(seq: Int, in catalog: SegmentCatalog) throws(SegmentStoreError) -> ArraySlice<UInt8>? {
        if readBack?.covers(seq) != true { readBack = try StoredLines(of: key, from: seq, in: catalog) }
        return readBack?.line(seq: seq)
    }

    /// Forgets what was read back.
    func dropReadBack() {
        readBack = nil
    }
}
