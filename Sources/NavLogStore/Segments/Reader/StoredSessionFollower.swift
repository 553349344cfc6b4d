import NavLogCore

/// Follows one session of a segment store while a writer appends to it
/// (schemas/segment-store.md §9, "Following"): each ``next(_:)`` hands out
/// the session's lines committed since the last call, in seq order, each
/// once. The store is looked at again only when its segment files changed
/// (a new segment, or the last one grew or was cut), and then only from the
/// end of the last commit read; what is handed out is always a prefix of
/// the session.
///
/// ```swift
/// let follower = StoredSessionFollower(try StoredSession(store: "events", session: "s-1"))
/// while true {
///     try follower.next { line, seq in print(seq) }
///     usleep(StoredSessionFollower.pollMicroseconds)
/// }
/// ```
///
/// It takes no lock and never waits: the caller decides how often to ask.
public final class StoredSessionFollower {
    /// How long a follower is meant to wait between two ``next(_:)`` calls
    /// that found nothing (50 ms: a commit is seen about that long after it is made).
    public static let pollMicroseconds: UInt32 = 50_000

    /// The session followed, read through the store's commits as of the last look.
    private var session: StoredSession
    /// Commits of ``session``'s catalog already read.
    private var commitsRead = 0
    /// Whether the commits are those of the first walk, not read yet.
    private var fresh = true
    /// The seq of the last line handed out (lines at or below it are passed over).
    public private(set) var lastSeq: Int
    private var fold = SessionFold()

    /// Follows `session` from its first event after seq `afterSeq`.
    public init(_ session: StoredSession, afterSeq: Int = 0) {
        self.session = session
        lastSeq = max(afterSeq, 0)
    }

    /// The session's id.
    public var id: String { session.id }

    /// Damage met in the last walk of the store (a torn tail of the last
    /// segment, a writer at work, is not damage).
    public var damage: [SegmentDamage] { session.damage }

    /// Calls `body` with each line (canonical, without `\n`) of the session
    /// committed since the last call, and its seq, in seq order; returns how
    /// many. The first call hands out every line stored so far.
    @discardableResult
    public func next(_ body: (UnsafeRawBufferPointer, Int) throws(SegmentStoreError) -> Void) throws(SegmentStoreError) -> Int {
        if !fresh {
            guard try storeChanged() else { return 0 }
            if try !session.catalog.takeInGrowth() {
                // The store no longer holds what was read (it was replaced): read it again from its start.
                session = try StoredSession(store: session.store, session: session.id)
                commitsRead = 0
            }
        }
        fresh = false
        var cursor = try SessionLineCursor(catalog: session.catalog, key: session.key, fromCommit: commitsRead, afterSeq: lastSeq)
        commitsRead = session.catalog.commits.count
        var count = 0
        while try cursor.nextBlock({ line throws(SegmentStoreError) in
            guard let seq = fold.key(line)?.seq else {
                throw .invalidEvent(session: session.id, seq: lastSeq + 1, reason: "a stored line does not parse as an event")
            }
            guard seq > lastSeq else { return }
            lastSeq = seq
            count += 1
            try body(line, seq)
        }) {}
        return count
    }

    /// Whether the store's segment files differ from those of the last walk:
    /// another segment, or the last one of another size.
    private func storeChanged() throws(SegmentStoreError) -> Bool {
        let catalog = session.catalog
        let numbers = try catalog.store.segmentNumbers()
        guard let last = catalog.segments.last else { return !numbers.isEmpty }
        if numbers.count != catalog.segments.count || numbers.last != last.contents.number { return true }
        do { return try last.file.size() != last.contents.fileSize } catch { throw .io(error) }
    }
}
