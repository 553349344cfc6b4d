// Segments/Writer/: Writing a segment store: the writer, commits gathered and written, the sessions under way, duplicate checks, the torn tail cut on open.

import NavLogCore

/// Gathers one commit on the writer's thread (schemas/segment-store.md §4,
/// §5): the sessions' runs in session-key order, where the data frames are
/// cut at the block target, and the checkpoints that fall in it — a
/// ``CommitPlan`` that ``CommitPlan/encode(base:backLink:encoder:arena:)`` turns
/// into bytes on the commit's own thread. Advances each session's position
/// as its lines go in, and its chain and state only where a checkpoint falls
/// (schemas/segment-store.md §8).
struct CommitBuilder {
    private let options: SegmentWriterOptions
    private var plan: CommitPlan
    /// The raw bytes of the block being filled (lines and their newlines).
    private var blockBytes = 0
    private var lastHash: UInt64?
    private var fold = SessionFold()

    init(number: UInt64, options: SegmentWriterOptions) {
        self.options = options
        plan = CommitPlan(number: number)
    }

    /// Adds a session's pending lines (its run), advancing its position;
    /// folds them into its chain and state when ``WriterSession/foldsInCommit(interval:)``
    /// (the writer has caught the session up first), with a checkpoint at
    /// every multiple of K.
    mutating func add(_ session: WriterSession, arena: ByteBuffer) {
        plan.sessionHashes.append(session.key.hash)
        let folding = session.foldsInCommit(interval: options.checkpointInterval)
        precondition(!folding || session.folded, "the writer catches a folding session up first")
        for entry in session.pending {
            if blockBytes == 0 {
                plan.blocks.append(CommitPlan.Block(lines: plan.lines.count, firstHash: session.key.hash,
                                                    continues: lastHash == session.key.hash))
            }
            plan.lines.append(CommitPlan.Line(start: entry.start, length: entry.length))
            plan.blocks[plan.blocks.count - 1].eventCount += 1
            blockBytes += entry.length + 1
            lastHash = session.key.hash
            plan.minT = min(plan.minT, entry.t)
            plan.maxT = max(plan.maxT, entry.t)
            session.count += 1
            if folding {
                let line = UnsafeRawBufferPointer(start: arena.base + entry.start, count: entry.length)
                fold.fold(line, into: &session.state!)
                session.chain = SessionChain.link(session.chain, line: line)
                if session.count % options.checkpointInterval == 0 { addCheckpoint(session, seq: entry.seq) }
            }
            if blockBytes >= options.blockTarget { blockBytes = 0 }
        }
        session.folded = folding
        plan.runEnds.append(plan.lines.count)
    }

    private mutating func addCheckpoint(_ session: WriterSession, seq: Int) {
        guard let state = session.state else { return }
        let json = StateChain.checkpointJSON(state.state)
        guard json.count <= StateChain.maxCheckpointJSONBytes else { return }
        plan.checkpoints.append(SessionCheckpoint(key: session.key, position: session.count, seq: seq,
                                                  chain: session.chain, json: json))
    }

    /// The commit gathered.
    func finish() -> CommitPlan { plan }
}
