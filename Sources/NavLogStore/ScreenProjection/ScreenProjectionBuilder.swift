import Dispatch
import NavLogCore

/// Builds the screen projection of a store's commits from their events
/// (schemas/screen-projection.md §6): every session is read whole, in
/// ``SegmentStorePart/defaultParts`` parts on two threads, and followed by
/// ``SessionOccurrences`` — the rows `funnel` records from the events —
/// whose rows are cut where the session's lines change commit.
///
/// Memory: the runs of at most ``sessionsInFlight`` sessions for each of
/// the two parts being read (runs are objects: ids, `session.start` events,
/// occurrences, hundreds of bytes a session), and the rows read so far as
/// pieces: blocks packed as in a projection file (§2.1; each piece repeats
/// the `session.start` events and names its sessions share, which packing
/// makes cheap), a piece per commit each time a part's runs are set down.
/// The blocks are then handed out one commit at a time
/// (``Built/nextBlock()``), each made from its pieces, which are dropped as
/// it is made. The caller compares or writes each block as it comes, so the
/// whole projection is never held unpacked.
enum ScreenProjectionBuilder {
    /// How many sessions' runs a part holds before it sets them down as pieces.
    static let sessionsInFlight = 16_384

    /// Some of a part's rows of one commit: a block body, packed (§2.1) when that is shorter.
    struct Piece {
        var packed = false
        var bytes: [UInt8] = []
    }

    /// What a build gives: the sessions seen, and each commit's block body, in store order, made on demand.
    struct Built {
        let sessions: Int
        /// Each part's pieces of each commit, in session-key order, dropped once used.
        private var pieces: [[[Piece]]]
        private let commits: [ScreenProjectionSet.CommitID]
        private let decoder: LZ4FrameDecoder
        private var next = 0

        fileprivate init(sessions: Int, pieces: [[[Piece]]], commits: [ScreenProjectionSet.CommitID], decoder: LZ4FrameDecoder) {
            self.sessions = sessions
            self.pieces = pieces
            self.commits = commits
            self.decoder = decoder
        }

        /// The block body of the next commit, in store order: its parts' runs, in part order.
        mutating func nextBlock() -> [UInt8] {
            precondition(next < commits.count, "a block asked for past the last commit built")
            let c = next, commit = commits[c]
            next += 1
            var runs: [ScreenProjectionRun] = []
            for part in pieces.indices {
                for piece in pieces[part][c] {
                    // Made by this build from runs: a piece that does not unpack or decode is a bug here, not damage.
                    guard let body = piece.packed ? try? ScreenProjectionFormat.unpack(piece.bytes, decoder: decoder) : piece.bytes,
                          let block = try? ScreenProjectionBlock(decoding: body) else {
                        preconditionFailure("a piece of commit \(commit.number) made here does not decode")
                    }
                    runs += (0..<block.sessionCount).map(block.run)
                }
                pieces[part][c] = []
            }
            return ScreenProjectionBlock.encode(commit: commit.number, indexOffset: commit.indexOffset, runs: runs)
        }

        /// Passes over the next `count` commits (a segment not compared), dropping their pieces.
        mutating func skip(_ count: Int) {
            for c in next..<min(commits.count, next + count) {
                for part in pieces.indices { pieces[part][c] = [] }
            }
            next = min(commits.count, next + count)
        }
    }

    /// Reads the runs of the first `commits` commits of the store at `path`; their blocks come from the result.
    /// (`inFlight`: tests set runs down every few sessions.)
    static func build(store path: String, commits: [ScreenProjectionSet.CommitID],
                      inFlight: Int = sessionsInFlight) throws(SessionStreamError) -> Built {
        let decoder: LZ4FrameDecoder
        do { decoder = try LZ4FrameDecoder() } catch { throw .store(.io(FileError(path: path, kind: .compression(error)))) }
        let parts = SegmentStorePart.defaultParts
        let results = ResultSlots<Result<(pieces: [[Piece]], sessions: Int), SessionStreamError>>(count: parts)
        DispatchQueue.concurrentPerform(iterations: min(SessionStream.defaultWorkers, parts)) { worker in
            var part = worker
            while part < parts {
                let share = SegmentStorePart(store: path, commits: commits.count, part: part, parts: parts)
                results.set(part, Result { () throws(SessionStreamError) in
                    var pieces = [[Piece]](repeating: [], count: commits.count)
                    let sessions = try runs(of: share, inFlight: inFlight) { (byCommit) throws(SessionStreamError) in
                        for c in byCommit.indices where !byCommit[c].isEmpty {
                            let body = ScreenProjectionBlock.encode(commit: 0, indexOffset: 0, runs: byCommit[c])
                            do throws(FileError) {
                                let packed = try ScreenProjectionFormat.packed(body, file: path)
                                pieces[c].append(Piece(packed: packed != nil, bytes: packed ?? body.withUnsafeBufferPointer { Array($0) }))
                            } catch { throw .store(.io(error)) }
                        }
                    }
                    return (pieces, sessions)
                })
                part += SessionStream.defaultWorkers
            }
        }
        var pieces: [[[Piece]]] = []
        var sessions = 0
        for part in 0..<parts {
            guard let result = results.value(part) else { continue }
            let built = try result.get()
            pieces.append(built.pieces)
            sessions += built.sessions
        }
        return Built(sessions: sessions, pieces: pieces, commits: commits, decoder: decoder)
    }

    /// Reads one part, session by session, and hands its runs to `setDown`
    /// by commit (index into the store's commits), each commit's in
    /// session-key order, every `inFlight` sessions and at its end; returns
    /// how many sessions it read.
    static func runs(of part: SegmentStorePart, inFlight: Int,
                     setDown: (_ byCommit: [[ScreenProjectionRun]]) throws(SessionStreamError) -> Void) throws(SessionStreamError) -> Int {
        var sessions = 0, held = 0
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
        try scan.forEachEvent(keepingRestoredJSON: false) { (event, startsSession) throws(SessionStreamError) in
            if startsSession {
                finish()
                if held == inFlight {
                    try setDown(byCommit)
                    byCommit = [[ScreenProjectionRun]](repeating: [], count: part.commits)
                    held = 0
                }
                sessions += 1
                held += 1
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
        try setDown(byCommit)
        return sessions
    }
}
