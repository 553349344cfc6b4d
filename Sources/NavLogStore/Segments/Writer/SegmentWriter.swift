#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Writes events into a segment store (schemas/segment-store.md §6, §8):
/// canonical lines are accepted one by one, gathered per session, and
/// written as commits — each session's lines a contiguous run in
/// session-key order, LZ4 data frames, checkpoints every K positions, a
/// commit index — with one sync per commit. A commit that the gathered
/// lines trigger is compressed, written and synced on a thread of its own
/// while the next one is gathered (at most one in flight); ``commit()``,
/// ``seal()`` and ``close()`` return once everything is synced.
///
/// ```swift
/// let writer = try SegmentWriter(store: SegmentStore.create(at: "events"))
/// _ = try writer.add(line)          // .stored or .duplicate; a conflict throws
/// try writer.close()                // the last commit, synced; the lock released
/// ```
public final class SegmentWriter {
    /// What ``add(_:)-(UnsafeRawBufferPointer)`` did with an event.
    public enum Outcome: Hashable, Sendable {
        /// Accepted: it is in the next commit.
        case stored
        /// The same line is already stored (or pending) at its seq: nothing to do.
        case duplicate
    }

    /// Counts since the writer was opened.
    public struct Counts: Hashable, Sendable {
        /// Events accepted (in a commit, or gathered for the next).
        public var stored = 0
        /// Of those, the events of the commits that landed (durable).
        public var committed = 0
        public var duplicates = 0
        public var commits = 0
        /// Sessions that got an event stored, and of those, the ones the store held no event of before.
        public var sessions = 0
        public var newSessions = 0
    }

    public let store: SegmentStore
    public let options: SegmentWriterOptions
    @exclusivity(unchecked) public private(set) var counts = Counts()
    /// What opening the store cut from a torn tail.
    public var recoveries: [SegmentRecovery] { appender.recoveries }

    let catalog: SegmentCatalog
    /// The number of the writer's first commit: a session with an event in it or later was counted before.
    private let runStart: UInt64
    private let appender: SegmentAppender
    // Fields every line touches are `@exclusivity(unchecked)`: only the
    // caller's thread uses them (a commit's thread has its own), and their
    // checks cost the writer ~8 % of its instructions.
    @exclusivity(unchecked) private var sessions = WriterSessionTable()
    /// The sessions with pending lines, in the order they got their first.
    @exclusivity(unchecked) private var gathered: [WriterSession] = []
    /// Whether a session not held may be stored (read back then).
    @exclusivity(unchecked) private var stored: StoredSessionFilter
    /// The pending lines of every session, back to back.
    @exclusivity(unchecked) private var arena = ByteBuffer(capacity: 1 << 20)
    /// The arena of the commit before the one in flight, kept for the next.
    private var spareArena: ByteBuffer?
    /// The events of pending lines that came parsed, for the projection
    /// (kept only when there is one), and those of the commit before the
    /// one in flight, whose storage the next commit's reuse.
    @exclusivity(unchecked) private var parsed = ParsedEvents()
    private var spareParsed: ParsedEvents?
    @exclusivity(unchecked) private var fold = SessionFold()
    @exclusivity(unchecked) private var closed = false
    /// Compresses every commit, on the commit's thread.
    private let encoder: LZ4FrameEncoder
    /// The commit being written, and its sessions.
    private var inFlight: (commit: CommitInFlight, sessions: [WriterSession])?
    /// Sessions holding stored lines read back for duplicate checks, and those lines' bytes.
    private var readBackHolders: [WriterSession] = []
    private var readBackBytes = 0
    /// The most bytes of read-back lines kept over all sessions (a re-sent input is checked in bounded memory).
    static let readBackBudget = 32 << 20
    /// Keeps the store's screen projection: when the store has one, or has
    /// no commit yet and ``SegmentWriterOptions/keepsProjection`` asks for it.
    private let projection: ScreenProjectionWriter?
    /// Why there is no projection to keep, for a store with commits and no projection file.
    private let projectionMissing: String?
    /// Why a commit failed: the writer takes nothing more then.
    @exclusivity(unchecked) private var failure: SegmentStoreError?
    /// The input being read (``startInput()``), and the number of its first
    /// commit whose lines all came from it.
    @exclusivity(unchecked) private var input = 1
    private var inputFirstCommit: UInt64
    /// The sessions forgotten while the input was read whose last seq in it
    /// the store cannot tell (``forgetSessions(keeping:)``): that seq.
    private var forgottenInInput = SessionValueTable<Int>()

    /// A writer on `store`, which must have been opened (or created) for
    /// writing. Walks the store and cuts a torn tail of its last segment.
    public init(store: SegmentStore, options: SegmentWriterOptions = SegmentWriterOptions()) throws(SegmentStoreError) {
        guard store.isWriter else { throw .locked(store: store.path) }
        self.store = store
        self.options = options
        catalog = try SegmentCatalog(store: store, mode: .writing)
        runStart = catalog.lastCommitNumber + 1
        inputFirstCommit = runStart
        appender = try SegmentAppender(store: store, catalog: catalog, options: options)
        stored = StoredSessionFilter(catalog: catalog)
        // A store that has a projection keeps it; a new (or empty) one starts it with its first commit.
        let has = ScreenProjectionWriter.hasProjection(store.path), empty = catalog.commits.isEmpty
        projection = has || (empty && options.keepsProjection) ? ScreenProjectionWriter(catalog: catalog) : nil
        projectionMissing = has || empty ? nil : "the store has none"
        do { encoder = try LZ4FrameEncoder(settings: options.lz4) } catch { throw .compression(error) }
    }

    deinit {
        // A writer dropped without close(): its last commit still lands (or fails) before the files close.
        _ = try? inFlight?.commit.land()
    }

    /// Why the store's screen projection is behind (readers read the events
    /// until `navlog reindex`): the store had commits and no projection
    /// (written without one, or its files deleted), it was behind when the
    /// writer opened the store, or it could not be kept; `nil` when it covers
    /// every commit landed (or the writer was asked to start none). Read once the writer is closed.
    public var projectionBehind: String? { projection?.problem ?? projectionMissing }

    /// Sessions held in memory (those with events in the commit being gathered or the last one).
    public var sessionsInMemory: Int { sessions.count }

    /// Takes one canonical event line (with its `seq` and `session`, without `\n`).
    ///
    /// - Throws: ``SegmentStoreError/conflict(session:seq:)`` for a different
    ///   line at a stored seq, ``SegmentStoreError/seqNotIncreasing(session:seq:last:)``,
    ///   ``SegmentStoreError/invalidEvent(session:seq:reason:)``; the writer
    ///   is unchanged then. I/O errors of the commit before the one it
    ///   triggers (that one is written while the next is gathered).
    @discardableResult
    public func add(_ line: UnsafeRawBufferPointer) throws(SegmentStoreError) -> Outcome {
        guard !closed else { throw .closed(store: store.path) }
        if let failure { throw failure }
        // memchr: the line's bytes are valid for the call.
        guard line.count > 0, line.count <= EventParser.maxLineBytes, memchr(line.baseAddress!, 0x0A, line.count) == nil,
              let facts = fold.key(line) else {
            throw .invalidEvent(session: "?", seq: 0, reason: "not a canonical event line with a seq")
        }
        return try add(line, facts)
    }

    /// Takes one canonical event line that the caller has already read: its
    /// `seq`, `t` and the range of its session id's bytes (ingest's
    /// validating thread reads every line; the writer's thread need not read
    /// it again). The caller vouches for the facts; otherwise as ``add(_:)-(UnsafeRawBufferPointer)``.
    /// `event`, when given, is the line's event: the projection follows it
    /// rather than parse the line again.
    @discardableResult
    package func add(_ line: UnsafeRawBufferPointer, seq: Int, t: Int64, session: Range<Int>,
                     event: Event? = nil) throws(SegmentStoreError) -> Outcome {
        guard !closed else { throw .closed(store: store.path) }
        if let failure { throw failure }
        guard line.count > 0, line.count <= EventParser.maxLineBytes, seq > 0, session.upperBound <= line.count else {
            throw .invalidEvent(session: "?", seq: seq, reason: "not a canonical event line with a seq")
        }
        let facts = SessionFold.LineKey(seq: seq, t: t, id: .inLine(session))
        guard let event else { return try add(line, facts) }
        // A pointer: a line without its event (nearly every canonical one) passes no `Event?` around.
        return try withUnsafePointer(to: event) { event in
            Result { () throws(SegmentStoreError) in try add(line, facts, event: event) }
        }.get()
    }

    private func add(_ line: UnsafeRawBufferPointer, _ facts: SessionFold.LineKey,
                     event: UnsafePointer<Event>? = nil) throws(SegmentStoreError) -> Outcome {
        let session = try facts.id(in: line) { id in Result { () throws(SegmentStoreError) in try findSession(id) } }.get()
        if facts.seq <= session.lastSeq {
            var existing = try pendingLine(session, seq: facts.seq)
            if existing == nil {
                try land()
                existing = try storedLine(session, seq: facts.seq)
            }
            guard let existing else {
                throw .seqNotIncreasing(session: session.key.string, seq: facts.seq, last: session.lastSeq)
            }
            // memcmp: both hold line.count bytes (a line is never empty).
            guard existing.count == line.count, existing.withUnsafeBytes({ memcmp($0.baseAddress!, line.baseAddress!, line.count) == 0 }) else {
                throw .conflict(session: session.key.string, seq: facts.seq)
            }
            session.input = input
            session.inputSeq = facts.seq
            counts.duplicates += 1
            return .duplicate
        }
        if session.pending.isEmpty {
            session.pending.reserveCapacity(8)
            gathered.append(session)
        }
        session.pending.append((arena.count, line.count, facts.seq, facts.t))
        if let event, projection != nil { parsed.append(start: arena.count, event.pointee) }
        arena.appendLine(line)
        session.lastSeq = facts.seq
        session.input = input
        session.inputSeq = facts.seq
        counts.stored += 1
        if !session.counted {
            session.counted = true
            counts.sessions += 1
            if !session.wasStored { counts.newSessions += 1 }
        }
        if arena.count >= options.commitTarget || parsed.count >= options.parsedTarget { try startCommit() }
        return .stored
    }

    /// The stored line of `session` at `seq`, read back through its cache;
    /// when the caches of all sessions pass ``readBackBudget`` bytes, they are emptied first.
    private func storedLine(_ session: WriterSession, seq: Int) throws(SegmentStoreError) -> ArraySlice<UInt8>? {
        keepReadBacksInBudget()
        let before = session.readBackBytes
        let line = try session.storedLine(seq: seq, in: catalog)
        countReadBack(session, before: before)
        return line
    }

    /// Empties every session's read-back lines once they pass ``readBackBudget`` bytes.
    private func keepReadBacksInBudget() {
        guard readBackBytes > Self.readBackBudget else { return }
        for held in readBackHolders { held.dropReadBack() }
        readBackHolders.removeAll()
        readBackBytes = 0
    }

    /// Counts what `session` holds read back now, against the `before` bytes it held.
    private func countReadBack(_ session: WriterSession, before: Int) {
        guard session.readBackBytes != before else { return }
        if before == 0 { readBackHolders.append(session) }
        readBackBytes += session.readBackBytes - before
    }

    /// The last seq of session `id` stored or accepted so far (0 when none).
    public func lastSeq(of id: String) throws(SegmentStoreError) -> Int {
        try Array(id.utf8).withUnsafeBytes { raw in Result { () throws(SegmentStoreError) in try findSession(raw) } }.get().lastSeq
    }

    /// Starts a new input (one file, pipe or upload request): the numbering
    /// of lines without a seq starts again for every session (§8 "Numbering").
    /// A writer's first input starts when it opens.
    public func startInput() {
        input += 1
        forgottenInInput.removeAll()
        // The commit being gathered gets the number after the one in flight; when it holds lines, they came before.
        let gathering = catalog.lastCommitNumber + (inFlight == nil ? 1 : 2)
        inputFirstCommit = gathered.isEmpty ? gathering : gathering + 1
    }

    /// The seq of the last line of session `id` accepted (stored, or
    /// already stored) in the current input, 0 when none: a line of it
    /// without a seq gets this + 1 (§8 "Numbering").
    public func lastSeqInInput(of id: String) throws(SegmentStoreError) -> Int {
        let session = try Array(id.utf8).withUnsafeBytes { raw in
            Result { () throws(SegmentStoreError) in try findSession(raw) }
        }.get()
        return session.input == input ? session.inputSeq : 0
    }

    /// The session with id bytes `id`: held, read back from the store when
    /// it may be stored there, or new.
    private func findSession(_ id: UnsafeRawBufferPointer) throws(SegmentStoreError) -> WriterSession {
        let hash = XXHash64.hash(id)
        if let known = sessions.find(id, hash: hash) { return known }
        let key = SessionKey(id: Array(id))
        let session: WriterSession
        if stored.mayHold(hash, in: catalog) {
            try land()
            keepReadBacksInBudget()
            session = try WriterSession.resume(key, from: catalog, runStart: runStart)
            countReadBack(session, before: 0)
        } else {
            session = WriterSession(key: key)
        }
        if !forgottenInInput.isEmpty, let seq = forgottenInInput.removeValue(for: id, hash: hash) {
            session.input = input
            session.inputSeq = seq
        } else if session.lastCommit >= inputFirstCommit {
            // Forgotten in this input after its last stored line, which was its last accepted in it.
            session.input = input
            session.inputSeq = session.lastSeq
        }
        sessions.insert(session)
        return session
    }

    /// Takes one canonical event line.
    @discardableResult
    public func add(_ line: [UInt8]) throws(SegmentStoreError) -> Outcome {
        try line.withUnsafeBytes { raw in Result { () throws(SegmentStoreError) in try add(raw) } }.get()
    }

    private func pendingLine(_ session: WriterSession, seq: Int) throws(SegmentStoreError) -> ArraySlice<UInt8>? {
        guard seq > session.storedSeq else { return nil }
        var lo = 0, hi = session.pending.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if session.pending[mid].seq < seq { lo = mid + 1 } else { hi = mid }
        }
        guard lo < session.pending.count, session.pending[lo].seq == seq else { return nil }
        let entry = session.pending[lo]
        return Array(UnsafeRawBufferPointer(start: arena.base + entry.start, count: entry.length))[...]
    }

    /// Writes what is gathered as one commit and syncs it (nothing when
    /// nothing is gathered), after the commit in flight if any. When more than ``SegmentWriterOptions/sessionsKept``
    /// sessions are held, those with no event in it are forgotten.
    public func commit() throws(SegmentStoreError) {
        guard !closed else { throw .closed(store: store.path) }
        try startCommit()
        try land()
    }

    /// Lands the commit in flight, then starts writing what is gathered on
    /// a thread of its own (the sessions and the catalog are this thread's:
    /// they are brought up to date here, the lines handed over with their arena).
    private func startCommit() throws(SegmentStoreError) {
        if let failure { throw failure }
        try land()
        let active = gathered.sorted { $0.key < $1.key }
        guard !active.isEmpty else {
            if sessions.count > options.sessionsKept { forgetSessions(keeping: []) }
            return
        }
        for session in active where session.foldsInCommit(interval: options.checkpointInterval) {
            try session.catchUp(from: catalog)
        }
        gathered.removeAll(keepingCapacity: true)
        projection?.prepare(active, catalog: catalog)
        let number = catalog.lastCommitNumber + 1
        var builder = CommitBuilder(number: number, options: options)
        for session in active { builder.add(session, arena: arena) }
        inFlight = (CommitInFlight(builder.finish(), arena: arena, appender: appender, encoder: encoder,
                                   projection: projection.map { ($0, active, parsed) }), active)
        parsed = spareParsed ?? ParsedEvents()
        parsed.removeAll()
        spareParsed = nil
        arena = spareArena ?? ByteBuffer(capacity: 1 << 20)
        spareArena = nil
        for session in active {
            session.pending.removeAll(keepingCapacity: false)
            session.storedSeq = session.lastSeq
            session.lastCommit = number
        }
        if sessions.count > options.sessionsKept { forgetSessions(keeping: active) }
    }

    /// Forgets every session held but `kept`. The numbering of one with a
    /// line in the current input goes on where it was when it comes back:
    /// when its last line accepted in the input is its last stored one, in a
    /// commit of the input, the store tells it (``findSession(_:)``, at
    /// no cost a session); otherwise (a duplicate came last, or the commit
    /// also holds lines of the input before) its last seq in the input is kept.
    private func forgetSessions(keeping kept: [WriterSession]) {
        let input = self.input, firstCommit = inputFirstCommit
        sessions.forEach { session in
            guard session.input == input, session.inputSeq != session.lastSeq || session.lastCommit < firstCommit else { return }
            forgottenInInput.set(session.inputSeq, for: session.key)
        }
        for session in kept { forgottenInInput.removeValue(for: session.key) }
        sessions.keepOnly(kept)
    }

    /// Waits for the commit in flight, if any, and adds it to the catalog.
    /// A commit that failed leaves the writer failed.
    private func land() throws(SegmentStoreError) {
        guard let (commit, active) = inFlight else { return }
        inFlight = nil
        do throws(SegmentStoreError) {
            let landed = try commit.land()
            try catalog.appendCommit(landed.index, at: landed.location, segment: landed.segment)
            counts.committed += landed.index.eventCount
        } catch {
            failure = error
            throw error
        }
        stored.committed(active, in: catalog)
        counts.commits += 1
        commit.arena.removeAll()
        spareArena = commit.arena
        spareParsed = commit.parsed
    }

    /// Seals the current segment now (footer and trailer); the next commit starts a new one.
    public func seal() throws(SegmentStoreError) {
        try commit()
        if let failure { throw failure }
        try appender.seal()
    }

    /// Writes the last commit, closes the segment and releases the store's lock.
    public func close() throws(SegmentStoreError) {
        guard !closed else { return }
        try commit()
        if let failure { throw failure }
        appender.close()
        projection?.close()
        closed = true
        store.releaseLock()
    }
}
