import NavLogCore

/// One session of a segment store, opened by id (``SessionLookup``): its
/// lines and events, its state at a ``StateSpec`` from its checkpoints
/// (schemas/segment-store.md §7), and what `info` says of it.
///
/// ```swift
/// let session = try StoredSession(store: "events", session: "s-1")
/// let state = try session.state(at: .seq(5000))    // last checkpoint ≤ 5000, then ≤ K events
/// ```
public final class StoredSession {
    /// The store's directory, as given.
    public let store: String
    /// The session's id.
    public var id: String { key.string }
    let key: SessionKey
    let reader: SegmentReader
    var catalog: SegmentCatalog { reader.catalog }

    /// Opens the store at `store` for reading session `id` (which may not be stored: see ``exists``).
    public init(store: String, session id: String) throws(SegmentStoreError) {
        self.store = store
        key = SessionKey(id)
        reader = try SegmentReader(store: SegmentStore.open(at: store))
    }

    private init(store: String, key: SessionKey, reader: SegmentReader) {
        self.store = store
        self.key = key
        self.reader = reader
    }

    /// Session `id` of the same store, read through this session's reader
    /// (the store's commits are found once, not again).
    public func sibling(_ id: String) throws(SessionLookupError) -> StoredSession {
        let other = StoredSession(store: store, key: SessionKey(id), reader: reader)
        let exists: Bool
        do { exists = try other.exists } catch { throw .segments(error) }
        guard exists else { throw .noSession(store: store, session: id) }
        return other
    }

    /// Whether the store holds any event of the session (reads its first block).
    public var exists: Bool {
        get throws(SegmentStoreError) {
            var cursor = try SessionLineCursor(catalog: catalog, key: key)
            return try cursor.nextBlock { _ in }
        }
    }

    /// Data frames decompressed so far.
    public var blocksDecompressed: Int { reader.blocksDecompressed }

    /// Damage met opening the store (a torn tail of the last segment is not damage).
    public var damage: [SegmentDamage] { reader.problems.filter { !$0.isTornTail } }

    /// Calls `body` with each stored line (canonical, without `\n`) of the session, in seq order.
    public func forEachLine(_ body: (UnsafeRawBufferPointer) throws(SegmentStoreError) -> Void) throws(SegmentStoreError) {
        var cursor = try SessionLineCursor(catalog: catalog, key: key)
        while try cursor.nextBlock(body) {}
    }

    /// Every event of the session, in seq order.
    ///
    /// - Complexity: O(n) time and memory in the session's events.
    public func events() throws(SegmentStoreError) -> [Event] {
        var cursor = StoredEventCursor(try SessionLineCursor(catalog: catalog, key: key))
        var events: [Event] = []
        while let event = try cursor.next() { events.append(event) }
        return events
    }

    /// A cursor of the session's events from the start.
    func eventCursor() throws(SegmentStoreError) -> StoredEventCursor {
        StoredEventCursor(try SessionLineCursor(catalog: catalog, key: key))
    }

    // MARK: Checkpoints

    /// The session's checkpoint records, by position, with their commit.
    func checkpointRefs() -> [(commit: Int, ref: CommitIndex.Checkpoint)] {
        catalog.checkpoints(of: key)
    }

    /// Reads a checkpoint of the session; `nil` when it is another session's
    /// (an XXH64 collision) or its JSON is not a state.
    func checkpoint(_ entry: (commit: Int, ref: CommitIndex.Checkpoint)) throws(SegmentStoreError) -> (SessionCheckpoint, NavigationState)? {
        let checkpoint = try catalog.readCheckpoint(commit: entry.commit, entry.ref)
        guard checkpoint.key == key, let state = checkpoint.state() else { return nil }
        return (checkpoint, state)
    }

    /// The last checkpoint whose event's seq is ≤ `n`: a checkpoint at
    /// position P has seq ≥ P (seqs increase from 1), so only those at P ≤ n
    /// can be, and the seqs are searched among them by reading O(log n) of them.
    func lastCheckpoint(atOrBeforeSeq n: Int) throws(SegmentStoreError) -> (commit: Int, SessionCheckpoint, NavigationState)? {
        let refs = checkpointRefs().filter { $0.ref.position <= n }
        var low = 0, high = refs.count   // refs[..<low] have seq ≤ n
        var best: (commit: Int, SessionCheckpoint, NavigationState)?
        // The last one is the usual answer (seqs without gaps): try it first.
        var probe = refs.count - 1
        while low < high {
            if let (checkpoint, state) = try checkpoint(refs[probe]), checkpoint.seq <= n {
                best = (refs[probe].commit, checkpoint, state)
                low = probe + 1
            } else {
                high = probe
            }
            probe = (low + high) / 2
        }
        return best
    }

    // MARK: State

    /// The session's state at `spec` (docs/state.md): from its last checkpoint
    /// before the point (for `N` and `end`), then the events after it; an
    /// instant folds the whole session, as `t` need not increase.
    public func state(at spec: StateSpec) throws(SegmentStoreError) -> NavigationState {
        var projector = NavigationProjector(session: id)
        var cursor: SessionLineCursor
        let start: (commit: Int, SessionCheckpoint, NavigationState)?
        switch spec {
        case .seq(let n): start = n > 0 ? try lastCheckpoint(atOrBeforeSeq: n) : nil
        case .end: start = try lastCheckpoint(atOrBeforeSeq: .max)
        case .instant: start = nil
        }
        if let (commit, checkpoint, state) = start {
            projector = NavigationProjector(state: state)
            cursor = try SessionLineCursor(catalog: catalog, key: key, fromCommit: commit, afterSeq: checkpoint.seq)
        } else {
            cursor = try SessionLineCursor(catalog: catalog, key: key)
        }
        if case .seq(0) = spec { return projector.state }
        var fold = SessionFold()
        var done = false
        while !done, try cursor.nextBlock({ line in
            guard !done, let facts = fold.key(line) else { return }
            switch spec {
            case .seq(let n) where facts.seq > n: done = true
            case .instant(let t) where facts.t > t.milliseconds: break
            default: fold.fold(line, into: &projector)
            }
        }) {}
        return projector.state
    }

    // MARK: Info

    /// What `info STORE --session ID` shows.
    public struct Summary: Hashable, Sendable {
        public var events = 0
        public var firstSeq: Int?
        public var lastSeq: Int?
        /// The earliest and latest `t` (milliseconds).
        public var minT: Int64?
        public var maxT: Int64?
        /// Bytes of the session's canonical lines, with their `\n`.
        public var contentBytes = 0
        /// Commits holding a run of the session.
        public var commits = 0
        public var checkpoints = 0
    }

    /// The session's figures; reads every block holding its lines.
    public func summary() throws(SegmentStoreError) -> Summary {
        var summary = Summary()
        var fold = SessionFold()
        var commits: Set<Int> = []
        var cursor = try SessionLineCursor(catalog: catalog, key: key)
        while try cursor.nextBlock({ line in
            guard let facts = fold.key(line) else { return }
            summary.events += 1
            summary.firstSeq = summary.firstSeq ?? facts.seq
            summary.lastSeq = facts.seq
            summary.minT = min(summary.minT ?? facts.t, facts.t)
            summary.maxT = max(summary.maxT ?? facts.t, facts.t)
            summary.contentBytes += line.count + 1
        }) {
            commits.insert(cursor.commitIndex)
        }
        summary.commits = commits.count
        summary.checkpoints = checkpointRefs().count
        return summary
    }
}

extension StoredSession {
    /// Appends every event of the session to `writer` (a new log): the
    /// stored canonical lines, in seq order, so the log's content is the
    /// session's lines byte for byte. The writer's errors come as
    /// ``SegmentStoreError/io(_:)``.
    public func write(to writer: LogWriter) throws(SegmentStoreError) {
        var cursor = try SessionLineCursor(catalog: catalog, key: key)
        var line: [UInt8] = []
        while try cursor.nextBlock({ bytes throws(SegmentStoreError) in
            line.removeAll(keepingCapacity: true)
            line.append(contentsOf: bytes)
            do throws(FileError) { try writer.append(line: line) } catch { throw .io(error) }
        }) {}
    }
}
