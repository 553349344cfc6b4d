import NavLogCore

/// What `verify STORE` found (schemas/segment-store.md §9).
public struct SegmentStoreReport: Hashable, Sendable {
    public var segments = 0
    public var commits = 0
    public var events = 0
    public var sessions = 0
    public var checkpoints = 0
    /// Every problem, in store order.
    public var problems: [SegmentDamage] = []
    /// Why the screen projection is behind the events, when it is and is
    /// not damaged (schemas/screen-projection.md §6): not a problem, but
    /// funnel, paths and export read the events until `reindex`.
    public var projectionBehind: String?
    /// Whether nothing is wrong but (at most) a torn tail: bytes after the durable point (§9.1).
    public var isIntactButTail: Bool { problems.allSatisfy(\.isTornTail) }
}

/// Reads every frame of every segment of a store: LZ4 and record checksums,
/// commit index agreement with its blocks, session-key order within a
/// commit, every line a canonical event, each session's seqs increasing
/// across commits, each Bloom filter holding its commit's sessions, and each
/// checkpoint's state and chain recomputed from the events (§9).
public enum SegmentVerifier {
    public static func verify(store: SegmentStore) throws(SegmentStoreError) -> SegmentStoreReport {
        var report = SegmentStoreReport()
        for name in try store.unknownNames() {
            report.problems.append(SegmentDamage(file: name, offset: 0, kind: .unknownFile))
        }
        let catalog = try SegmentCatalog(store: store, mode: .verifying)
        report.segments = catalog.segments.count
        report.problems += catalog.problems
        // The checker's table of every session is gone before the projection is built.
        do {
            var checker = CommitChecker(catalog: catalog)
            // A commit the walk lost to damage: the checkpoints after it lack its events.
            checker.lostCommit = catalog.problems.filter { !$0.isTornTail }.map { $0.commit ?? 0 }.min()
            for (position, ref) in catalog.commits.enumerated() {
                try checker.check(ref, position: position, report: &report)
            }
            report.sessions = checker.sessionCount
        }
        report.commits = catalog.commits.count
        if report.isIntactButTail { try ScreenProjectionIndex.check(catalog, report: &report) }
        return report
    }
}

/// Checks one commit after another against the events before it.
struct CommitChecker {
    let catalog: SegmentCatalog
    /// Per session: last seq, position and chain so far (every session of the store, so kept compact).
    private var sessions = SessionValueTable<(seq: Int, count: Int, chain: UInt64)>()
    private var fold = SessionFold()
    /// Whether events were lost to damage (a block that could not be read, or a commit before
    /// this one, ``lostCommit``): no later checkpoint can then be compared with the events (and
    /// repair keeps only the commits before that damage).
    private var eventsLost = false
    /// The number of the first commit the catalog's walk found damaged (0: before any commit).
    var lostCommit: UInt64?
    var sessionCount: Int { sessions.count }

    init(catalog: SegmentCatalog) { self.catalog = catalog }

    /// What a reader's error says is wrong: its damage's, or (I/O trouble) `other` with its text.
    static func fault(_ error: SegmentStoreError, else other: (String) -> SegmentFault) -> SegmentFault {
        if case .corrupt(let found) = error { found.kind } else { other(error.reason) }
    }

    mutating func check(_ ref: SegmentCatalog.CommitRef, position: Int, report: inout SegmentStoreReport) throws(SegmentStoreError) {
        let index = catalog.index(ref)
        if let lostCommit, index.number > lostCommit { eventsLost = true }
        let name = catalog.segments[ref.segment].contents.name
        func damage(_ offset: Int64, _ session: String?, _ kind: SegmentFault) {
            report.problems.append(SegmentDamage(file: name, offset: offset, commit: index.number, session: session, kind: kind))
        }
        // Positions a checkpoint of this commit stands at: the chain and seq there.
        var wanted: [SessionKey: [Int]] = [:]
        var atCheckpoint: [String: (chain: UInt64, seq: Int)] = [:]
        var decoded: [(ref: CommitIndex.Checkpoint, checkpoint: SessionCheckpoint)] = []
        for checkpointRef in index.checkpoints {
            do {
                let checkpoint = try catalog.readCheckpoint(commit: position, checkpointRef)
                guard checkpoint.position == checkpointRef.position, checkpoint.key.hash == checkpointRef.sessionHash else {
                    damage(checkpointRef.offset, checkpoint.key.string, .checkpoint("disagrees with its commit index entry"))
                    continue
                }
                wanted[checkpoint.key, default: []].append(checkpoint.position)
                decoded.append((checkpointRef, checkpoint))
            } catch {
                damage(checkpointRef.offset, nil, Self.fault(error, else: SegmentFault.checkpoint))
            }
        }
        var previous: SessionKey?
        var lastHash: UInt64?
        var commitSessions = 0, events = 0
        // A block that cannot be read is one problem: what the index says of it and of the
        // block after (whether that continues its last session) cannot be checked, not wrong.
        var unreadBlocks = 0, afterUnread = false
        for (b, block) in index.blocks.enumerated() {
            let bytes: UnsafeRawBufferPointer
            do { bytes = try catalog.blockContent(ref, block: b) } catch {
                damage(block.offset, nil, Self.fault(error, else: SegmentFault.dataFrame))
                lastHash = nil
                unreadBlocks += 1
                afterUnread = true
                eventsLost = true
                continue
            }
            defer { afterUnread = false }
            var start = 0, lines = 0
            while start < bytes.count {
                let end = lineEnd(in: bytes, from: start)
                defer { start = end + 1 }
                let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
                lines += 1
                guard let facts = fold.facts(line) else {
                    damage(block.offset, nil, .line("line \(lines) of the block is not a canonical event"))
                    continue
                }
                let key = SessionKey(facts.session)
                if lines == 1, key.hash != block.firstHash || (!afterUnread && (lastHash == key.hash) != block.continues) {
                    damage(block.offset, facts.session, .commitIndex("block \(b)'s first session hash or continuation flag is wrong"))
                }
                lastHash = key.hash
                if let previous, key < previous {
                    damage(block.offset, facts.session, .line("seq \(facts.seq) is out of session-key order"))
                }
                if key != previous {
                    commitSessions += 1
                    if !index.bloom.mayContain(key.hash) { damage(block.offset, facts.session, .bloomFilter("session is missing")) }
                }
                previous = key
                var known = sessions.value(for: key) ?? (0, 0, 0)
                if facts.seq <= known.seq {
                    damage(block.offset, facts.session, .line("seq \(facts.seq) does not increase (after \(known.seq))"))
                }
                known = (facts.seq, known.count + 1, SessionChain.link(known.chain, line: line))
                sessions.set(known, for: key)
                if wanted[key]?.contains(known.count) == true { atCheckpoint["\(facts.session)@\(known.count)"] = (known.chain, facts.seq) }
            }
            events += lines
            if lines != block.eventCount {
                damage(block.offset, nil, .commitIndex("block \(b) holds \(lines) events, \(block.eventCount) listed"))
            }
        }
        if unreadBlocks == 0, events != index.eventCount || commitSessions != index.sessionCount {
            damage(catalog.segments[ref.segment].contents.indexLocations[ref.commit].offset, nil,
                   .commitIndex("counts \(index.eventCount) events, \(index.sessionCount) sessions; the blocks hold \(events), \(commitSessions)"))
        }
        report.events += events
        for (checkpointRef, checkpoint) in decoded where !eventsLost {
            report.checkpoints += 1
            let id = checkpoint.key.string
            guard let expected = atCheckpoint["\(id)@\(checkpoint.position)"],
                  expected.chain == checkpoint.chain, expected.seq == checkpoint.seq else {
                damage(checkpointRef.offset, id, .checkpoint("chain hash or seq at position \(checkpoint.position) is not the events'"))
                continue
            }
            var replay: SegmentCatalog.Replay?
            do {
                replay = try catalog.replay(checkpoint.key, toPosition: checkpoint.position, checkpointsBelow: checkpoint.position)
            } catch {
                // A damaged checkpoint below it is that checkpoint's problem: folded from the session's start instead.
                do { replay = try catalog.replay(checkpoint.key, toPosition: checkpoint.position, checkpointsBelow: 0) } catch {
                    damage(checkpointRef.offset, id, .checkpoint("state cannot be recomputed: \(error.reason)"))
                    continue
                }
            }
            guard let replay, replay.position == checkpoint.position,
                  StateChain.checkpointJSON(replay.state.state) == checkpoint.json else {
                damage(checkpointRef.offset, id, .checkpoint("state at position \(checkpoint.position) is not the fold of the events"))
                continue
            }
        }
    }
}
