import NavLogCore

extension StoredSession {
    /// The states after each event whose seq is in `from...to`, in seq
    /// order: each exactly ``state(at:)`` of `.seq(N)` for that event's
    /// seq N, made by one fold from the last checkpoint before `from`, so a
    /// run of states costs about one state's work plus its events (what
    /// the browser viewer asks for around its cursor).
    ///
    /// - Complexity: O(k + m) events folded: k from the checkpoint to `from`, m in the range.
    public func states(from: Int, to: Int, _ body: (NavigationState) -> Void) throws(SegmentStoreError) {
        guard from <= to else { return }
        var projector = NavigationProjector(session: id)
        var cursor: SessionLineCursor
        if from > 1, let (commit, checkpoint, state) = try lastCheckpoint(atOrBeforeSeq: from - 1) {
            projector = NavigationProjector(state: state)
            cursor = try SessionLineCursor(catalog: catalog, key: key, fromCommit: commit, afterSeq: checkpoint.seq)
        } else {
            cursor = try SessionLineCursor(catalog: catalog, key: key)
        }
        var fold = SessionFold()
        var done = false
        while !done, try cursor.nextBlock({ line in
            guard !done, let facts = fold.key(line) else { return }
            if facts.seq > to { done = true; return }
            fold.fold(line, into: &projector)
            if facts.seq >= from { body(projector.state) }
        }) {}
    }
}
