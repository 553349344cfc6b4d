import NavLogCore

extension SegmentCatalog {
    /// A session replayed from the store: its state, position, chain hash
    /// and seq there.
    struct Replay {
        var state: NavigationProjector
        var position = 0
        var chain: UInt64 = 0
        var lastSeq = 0
        /// The number of the last commit read that holds an event of the session.
        var lastCommitNumber: UInt64 = 0
    }

    /// Session `key` after its first `position` events: its last checkpoint
    /// at or before the position (below `below`, when given), then the
    /// events after it (schemas/segment-store.md §7). The position reached
    /// is smaller when the session has fewer events; `nil` when the session
    /// is not stored. Without `folding`, only the position, seq and commit
    /// are followed: the state and chain stay those of the checkpoint.
    func replay(_ key: SessionKey, toPosition position: Int = .max, checkpointsBelow below: Int = .max, folding: Bool = true,
                onLine: (_ seq: Int, _ line: UnsafeRawBufferPointer) -> Void = { _, _ in })
        throws(SegmentStoreError) -> Replay? {
        var replay = Replay(state: NavigationProjector(session: key.string))
        guard !commits.isEmpty else { return nil }
        var from = 0
        for (commit, ref) in checkpoints(of: key).reversed() where ref.position <= position && ref.position < below {
            let checkpoint = try readCheckpoint(commit: commit, ref)
            guard checkpoint.key == key, let restored = checkpoint.state() else { continue }
            replay = Replay(state: NavigationProjector(state: restored), position: checkpoint.position, chain: checkpoint.chain,
                            lastSeq: checkpoint.seq, lastCommitNumber: index(commits[commit]).number)
            from = commit
            break
        }
        var stored = replay.position > 0
        let skipThrough = replay.lastSeq
        try forEachLine(of: key, fromCommit: from) { line, ref in
            stored = true
            replay.lastCommitNumber = index(ref).number
            guard replay.position < position else { return false }
            guard let seq = readFold.seq(line), seq > skipThrough else { return true }
            onLine(seq, line)
            if folding {
                readFold.fold(line, into: &replay.state)
                replay.chain = SessionChain.link(replay.chain, line: line)
            }
            replay.position += 1
            replay.lastSeq = seq
            return replay.position < position
        }
        return stored ? replay : nil
    }
}
