import NavLogCore

extension LogReader {
    /// The state after every event with `seq ≤ n` (`0`: the empty state):
    /// the last checkpoint at or before `n`, plus at most K folded events.
    ///
    /// - Complexity: O(log blocks) to find the checkpoint, then O(K) events
    ///   decompressed and folded; no earlier block is read.
    public func state(afterSeq n: Int) throws(FileError) -> NavigationState {
        let session = try session() ?? ""
        guard n > 0 else { return NavigationState(session: session) }
        var state: NavigationProjector
        var startBlock = 0
        if let ref = lastCheckpoint(where: { $0.seq <= n }) {
            state = NavigationProjector(state: try loadCheckpoint(ref).state)
            startBlock = ref.blockIndex + 1
        } else {
            state = NavigationProjector(session: session)
        }
        var i = startBlock
        while i < blocks.count, blocks[i].firstSeq <= n {
            let done = try fold(block: blocks[i], into: &state) { $0.seq <= n ? .apply : .stop }
            if done { return state.state }
            i += 1
        }
        for event in tailEvents {
            if event.seq > n { break }
            StateChain.project(&state, event)
        }
        return state.state
    }

    /// The state after every event with `t ≤ instant`, applied in seq order
    /// (docs/events.md; `t` need not increase).
    ///
    /// - Complexity: O(log blocks) when `t` never decreases in the file;
    ///   otherwise every later block whose smallest `t` is ≤ `instant` is read.
    public func state(atInstant instant: Timestamp) throws(FileError) -> NavigationState {
        let session = try session() ?? ""
        let limit = instant.milliseconds
        // Blocks 0..<whole hold only events with t ≤ instant (running max is monotonic).
        var low = 0, high = blocks.count
        while low < high {
            let mid = (low + high) / 2
            if blocks[mid].runningMaxT <= limit { low = mid + 1 } else { high = mid }
        }
        let whole = low
        var state: NavigationProjector
        var startBlock = 0
        if let ref = lastCheckpoint(where: { $0.blockIndex < whole }) {
            state = NavigationProjector(state: try loadCheckpoint(ref).state)
            startBlock = ref.blockIndex + 1
        } else {
            state = NavigationProjector(session: session)
        }
        for i in startBlock..<whole {
            _ = try fold(block: blocks[i], into: &state) { _ in .apply }
        }
        let ordered = blocks.last?.timeOrdered ?? true
        var i = whole
        while i < blocks.count {
            let entry = blocks[i]
            if entry.minT <= limit {
                _ = try fold(block: entry, into: &state) { $0.t.milliseconds <= limit ? .apply : .skip }
            }
            if ordered { break }   // later blocks start after this one's last t > instant
            i += 1
        }
        for event in tailEvents where event.t.milliseconds <= limit {
            StateChain.project(&state, event)
        }
        return state.state
    }

    /// The state at `spec` (docs/state.md): after a seq, at an instant, or at the end.
    public func state(at spec: StateSpec) throws(FileError) -> NavigationState {
        switch spec {
        case .seq(let n): try state(afterSeq: n)
        case .instant(let t): try state(atInstant: t)
        case .end: try finalState()
        }
    }

    /// The state after the last event.
    public func finalState() throws(FileError) -> NavigationState {
        try state(afterSeq: lastSeq ?? 0)
    }

    // MARK: Folding

    enum FoldStep { case apply, skip, stop }

    /// Folds a block's events as `decide` says; returns whether it stopped.
    private func fold(
        block entry: BlockEntry, into state: inout NavigationProjector, _ decide: (Event) -> FoldStep
    ) throws(FileError) -> Bool {
        let reader = try requireBlockReader()
        try reader.read(entry)
        var stopped = false
        try forEachLine(in: reader.content.bytes) { (line, _) throws(FileError) in
            let event = try reader.parse(line, of: entry)
            switch decide(event) {
            case .apply: StateChain.project(&state, event)
            case .skip: break
            case .stop:
                stopped = true
                return false
            }
            return true
        }
        return stopped
    }

    /// The last checkpoint satisfying a monotonic predicate (true, then false).
    private func lastCheckpoint(where isBefore: (CheckpointRef) -> Bool) -> CheckpointRef? {
        var low = 0, high = checkpoints.count
        while low < high {
            let mid = (low + high) / 2
            if isBefore(checkpoints[mid]) { low = mid + 1 } else { high = mid }
        }
        return low > 0 ? checkpoints[low - 1] : nil
    }
}
