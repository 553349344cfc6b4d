import Dispatch
import NavLogCore

/// Builds the screen projection of a store's commits from their events
/// (schemas/screen-projection.md §6): every session is read whole, in
/// ``SegmentStorePart/defaultParts`` parts on two threads, and followed by
/// ``SessionOccurrences`` — the rows `funnel` records from the events —
/// whose rows are cut where the session's lines change commit.
enum ScreenProjectionBuilder {
    /// What a build gives: each commit's block body, in store order, and the sessions seen.
    struct Built {
        var blocks: [[UInt8]]
        var sessions: Int
    }

    /// The block bodies of the first `commits` commits of the store at `path`.
    /// Memory: the runs of the parts being read (two at a time) and every
    /// part's rows encoded as a block per commit (a few bytes a row); a
    /// commit's block is then made from its parts' blocks, one commit at a time.
    static func build(store path: String, commits: [ScreenProjectionSet.CommitID]) throws(SessionStreamError) -> Built {
        let parts = SegmentStorePart.defaultParts
        let results = ResultSlots<Result<(partials: [[UInt8]], sessions: Int), SessionStreamError>>(count: parts)
        DispatchQueue.concurrentPerform(iterations: min(SessionStream.defaultWorkers, parts)) { worker in
            var part = worker
            while part < parts {
                let piece = SegmentStorePart(store: path, commits: commits.count, part: part, parts: parts)
                results.set(part, Result { () throws(SessionStreamError) in
                    let built = try runs(of: piece)
                    return (built.runs.map { ScreenProjectionBlock.encode(commit: 0, indexOffset: 0, runs: $0) }, built.sessions)
                })
                part += SessionStream.defaultWorkers
            }
        }
        var partials: [[[UInt8]]] = []
        var sessions = 0
        for part in 0..<parts {
            guard let result = results.value(part) else { continue }
            let built = try result.get()
            partials.append(built.partials)
            sessions += built.sessions
        }
        var blocks: [[UInt8]] = []
        for (c, commit) in commits.enumerated() {
            var runs: [ScreenProjectionRun] = []
            for part in partials.indices {
                // Made just above from runs: a block that does not decode is a bug here, not damage.
                guard let block = try? ScreenProjectionBlock(decoding: partials[part][c]) else {
                    preconditionFailure("a part's block of commit \(commit.number) made here does not decode")
                }
                runs += (0..<block.sessionCount).map(block.run)
                partials[part][c] = []
            }
            blocks.append(ScreenProjectionBlock.encode(commit: commit.number, indexOffset: commit.indexOffset, runs: runs))
        }
        return Built(blocks: blocks, sessions: sessions)
    }

    /// One part's runs, by commit (index into the store's commits), each
    /// commit's in session-key order, and how many sessions they are.
    static func runs(of part: SegmentStorePart) throws(SessionStreamError) -> (runs: [[ScreenProjectionRun]], sessions: Int) {
        var sessions = 0
        var byCommit = [[ScreenProjectionRun]](repeating: [], count: part.commits)
        let scan = try SegmentPartScan(part)
        let names = ScreenNameCache()
        var recorder: SessionOccurrences?
        /// The current session's runs: commit, first event, occurrences recorded before it, its `session.start`.
        var runs: [(commit: Int, seq: Int, t: Timestamp, from: Int, start: Event?)] = []
        func finish() {
            guard let recorder else { return }
            for (k, run) in runs.enumerated() {
                let end = k + 1 < runs.count ? runs[k + 1].from : recorder.occurrences.count
                byCommit[run.commit].append(ScreenProjectionRun(
                    session: recorder.session, firstSeq: run.seq, firstT: run.t, sessionStart: run.start,
                    occurrences: Array(recorder.occurrences[run.from..<end])))
            }
            runs.removeAll(keepingCapacity: true)
        }
        try scan.forEachEvent { event, startsSession in
            if startsSession {
                finish()
                sessions += 1
                recorder = SessionOccurrences(session: event.session, keepsMarks: true)
            }
            if runs.last?.commit != scan.lineCommit {
                runs.append((scan.lineCommit, event.seq, event.t, recorder!.occurrences.count, nil))
            }
            let hadStart = recorder!.sessionStart != nil
            recorder!.add(event, names: names)
            if !hadStart, let start = recorder!.sessionStart { runs[runs.count - 1].start = start }
        }
        finish()
        return (byCommit, sessions)
    }
}
