#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NavLogCore

/// Appends one projection block per commit as the store's writer lands it
/// (schemas/screen-projection.md §6): each session of the commit is
/// followed by a ``SessionOccurrences`` kept in its ``WriterSession`` from
/// one commit to the next, and its rows are cut where the commit ends.
///
/// The projection is a cache: when it cannot keep up — the store's
/// projection was already behind when the writer opened it, a line does
/// not parse, a write fails — it stops, says why in ``problem``, and the
/// store's readers read the events until `navlog reindex`.
///
/// Used by one thread at a time: the writer's while it gathers a commit
/// (``prepare(_:catalog:)``), the commit's while it is in flight
/// (``append(_:landed:sessions:arena:)``, whose sessions it shares with a
/// pool thread), handed over with the commit.
final class ScreenProjectionWriter: @unchecked Sendable {
    /// Why the projection stopped being kept (the readers fall back to the events), or `nil`.
    private(set) var problem: String?
    private let store: String
    /// The segment whose file is open for appending, and where its next block goes.
    private var segment: Int
    private var file: OpenFile?
    private var end: Int64 = 0
    /// One per core: each follows a share of a commit's sessions.
    private let followers = (0..<SessionStream.defaultWorkers).map { _ in ScreenFollower() }

    /// Keeps the projection of `catalog`'s store on from its last commit,
    /// when every commit so far is covered: every segment has a projection
    /// file and the last one's covers all its commits (a tail past them, cut
    /// short by a crash, is cut off). Otherwise the projection is behind and
    /// the writer keeps none (``problem``).
    init(catalog: SegmentCatalog) {
        store = catalog.store.path
        let set = ScreenProjectionSet(catalog: catalog, commits: catalog.commits.count)
        segment = set.segments.last?.number ?? 0
        guard let last = set.segments.last else { return }
        for earlier in set.segments.dropLast() where !OpenFile.exists(path(earlier.number)) {
            problem = "segment \(earlier.number) has no projection file"
            return
        }
        do throws(FileError) {
            // Only the blocks' commits are compared: their session.start templates are not parsed.
            guard let read = try ScreenProjectionFile.read(store: store, segment: last.number, withTemplates: false),
                  read.blocks.count >= last.commits.count,
                  zip(read.blocks, last.commits).allSatisfy({ $0.commit == $1.number && $0.indexOffset == $1.indexOffset }) else {
                problem = "segment \(last.number)'s projection does not cover its commits"
                return
            }
            // Where the covered blocks end: the next block's record, a damaged tail, or the file's end.
            let file = try OpenFile(path: path(last.number), mode: .update)
            let size = try file.size()
            end = read.blocks.count > last.commits.count ? read.offsets[last.commits.count] : read.problem?.offset ?? size
            if end < size { try file.truncate(to: end) }
            self.file = file
        } catch {
            problem = error.description
        }
    }

    /// Whether the store at `path` has a projection file: then every writer keeps it up to date.
    static func hasProjection(_ path: String) -> Bool {
        ((try? DirectoryListing.names(in: path)) ?? []).contains { ScreenProjectionFormat.segmentNumber($0) != nil }
    }

    private func path(_ number: Int) -> String { store + "/" + ScreenProjectionFormat.fileName(number) }

    /// On the writer's thread, before a commit is handed over: gives each of
    /// its sessions its screen state at the end of the commits landed —
    /// empty for a session with nothing stored, else its stored events
    /// followed from its first (a session the writer forgot and read back).
    func prepare(_ sessions: [WriterSession], catalog: SegmentCatalog) {
        guard problem == nil else { return }
        for session in sessions where session.screens == nil {
            var recorder = SessionOccurrences(session: session.key.string)
            if session.count > 0 {
                do throws(SegmentStoreError) {
                    var events = StoredEventCursor(try SessionLineCursor(catalog: catalog, key: session.key))
                    while let event = try events.next() { recorder.add(event, names: followers[0].names) }
                } catch {
                    problem = "session \(session.key.string) read back: \(error)"
                    return
                }
                _ = recorder.takeRun()
            }
            session.screens = recorder
        }
    }

    /// On the commit's thread, once the commit is synced: appends its block.
    /// `sessions` are the commit's sessions in key order, `runEnds[i]` the
    /// end of session i's lines in `plan.lines`; `parsed`, the events of the
    /// lines that came parsed (the others are parsed here). A commit of many
    /// lines is followed on both cores, each a contiguous share of its sessions.
    func append(_ plan: CommitPlan, landed: CommitInFlight.Landed, sessions: [WriterSession], arena: ByteBuffer,
                parsed: ParsedEvents) {
        guard problem == nil else { return }
        let job = CommitJob(sessions: sessions, runEnds: plan.runEnds, lines: plan.lines, arena: arena, parsed: parsed)
        let shares = plan.lines.count >= 1024 ? min(followers.count, sessions.count) : 1
        // Where each share's sessions begin: about as many lines in each.
        var starts = [0]
        for (i, end) in plan.runEnds.enumerated() where starts.count < shares && end >= plan.lines.count * starts.count / shares {
            starts.append(i + 1)
        }
        starts.append(sessions.count)
        let slots = ResultSlots<Result<[ScreenProjectionRun], FollowFailure>>(count: starts.count - 1)
        let followers = followers, bounds = starts
        DispatchQueue.concurrentPerform(iterations: bounds.count - 1) { share in
            let range = bounds[share]..<bounds[share + 1]
            slots.set(share, Result { () throws(FollowFailure) in try followers[share].runs(of: job, range) })
        }
        var runs: [ScreenProjectionRun] = []
        runs.reserveCapacity(sessions.count)
        do throws(FileError) {
            for share in 0..<(bounds.count - 1) {
                switch slots.value(share) {
                case .success(let some)?: runs += some
                case .failure(let failure)?: return stop(failure.why)
                case nil: return stop("a share of the commit was not followed")
                }
            }
            if file == nil || landed.segment != segment { try startFile(landed.segment) }
            var record: [UInt8] = []
            let body = ScreenProjectionBlock.encode(commit: plan.number, indexOffset: landed.location.offset, runs: runs)
            try ScreenProjectionFormat.appendBlock(body, to: &record, file: path(segment))
            try file!.write(record, at: end)
            end += Int64(record.count)
        } catch {
            stop(error.description)
        }
    }

    /// Opens segment `number`'s projection file afresh, with its header.
    private func startFile(_ number: Int) throws(FileError) {
        file?.close()
        file = nil
        let file = try OpenFile(path: path(number), mode: .readWrite)
        try file.truncate(to: 0)
        let header = ScreenProjectionFormat.header(segment: number)
        try file.write(header, at: 0)
        segment = number
        end = Int64(header.count)
        self.file = file
    }

    private func stop(_ why: String) {
        problem = why
        file?.close()
        file = nil
    }

    /// Closes the file (nothing is synced: a block lost in a crash leaves the projection behind, §6).
    func close() {
        file?.close()
        file = nil
    }
}

/// A commit's sessions and lines, handed to the threads that follow them:
/// each session is touched by one thread only (its share), and the lines
/// are only read while the commit is in flight.
private struct CommitJob: @unchecked Sendable {
    let sessions: [WriterSession]
    let runEnds: [Int]
    let lines: [CommitPlan.Line]
    let arena: ByteBuffer
    let parsed: ParsedEvents
}

/// Why a session could not be followed.
private struct FollowFailure: Error {
    let why: String
}

/// Follows sessions' lines through their screen state, on one thread at a
/// time (its parser and screen names are its own).
private final class ScreenFollower: @unchecked Sendable {
    /// A `state.restore` line's event has its scene alone: the fold looks at nothing else of it.
    var parser = EventLineParser(keepingObjects: true, keepingRestoredJSON: false)
    let names = ScreenNameCache()
    /// `session.start` events and their templates by a hash of their line
    /// before `seq` (what the sessions of one app build and device share),
    /// its bytes kept to check a hit: such a line is parsed whole once, not
    /// once a session (it is most of the parsing of short sessions), and its
    /// template made once.
    private var starts: [UInt64: KnownStart] = [:]
    private struct KnownStart {
        let before: [UInt8]
        let event: Event
        let template: String
    }
    /// How a canonical `session.start` line whose last members are seq, session, t and type ends.
    private static let startEnd = Array(#"","type":"session.start"}"#.utf8)
    private static let sessionToT = Array(#"","t":""#.utf8)
    private static let seqKey = Array(#""seq":"#.utf8)
    private static let seqToSession = Array(#","session":""#.utf8)

    /// The event and template of a `session.start` line whose end is `tail`:
    /// those of the lines with the same bytes before seq, with the line's
    /// own seq, session and t. `nil` when the line, parsed, is not the event
    /// its end says (then it is parsed as any other line).
    private func start(_ line: UnsafeRawBufferPointer, _ tail: StartTail) -> (event: Event, template: String)? {
        let before = UnsafeRawBufferPointer(rebasing: line[..<tail.beforeEnd])
        let hash = XXHash64.hash(before)
        let session = String(decoding: line[tail.id], as: UTF8.self)
        if let known = starts[hash], known.before.count == before.count,
           known.before.withUnsafeBytes({ memcmp($0.baseAddress!, before.baseAddress!, before.count) }) == 0 {
            var event = known.event
            event.session = session
            event.seq = tail.seq
            event.t = tail.t
            return (event, known.template)
        }
        guard let event = try? parser.parse(line), case .sessionStart = event.kind,
              event.seq == tail.seq, event.t == tail.t, event.session == session else { return nil }
        let template = ScreenProjectionBlock.template(before: before)
        if starts.count >= 4096 { starts.removeAll() }
        starts[hash] = KnownStart(before: Array(before), event: event, template: template)
        return (event, template)
    }

    /// The end of a canonical `session.start` line,
    /// `…,"seq":N,"session":"ID","t":"T","type":"session.start"}`: where its
    /// bytes before seq end, its seq, id and t, read backwards from its end
    /// (an id without escapes). `nil` for any other line. The line is one
    /// the writer stores (a valid event in canonical form), so members in
    /// key order and strings without a bare quote: nothing else ends so.
    private static func startTail(_ line: UnsafeRawBufferPointer) -> StartTail? {
        let tEnd = line.count - startEnd.count, tStart = tEnd - 24
        let idEnd = tStart - sessionToT.count
        guard idEnd > 0, holds(line, startEnd, at: tEnd), holds(line, sessionToT, at: idEnd) else { return nil }
        var idStart = idEnd
        while idStart > 0, line[idStart - 1] != UInt8(ascii: "\""), line[idStart - 1] != UInt8(ascii: "\\") { idStart -= 1 }
        let seqEnd = idStart - seqToSession.count
        guard idStart < idEnd, seqEnd > 0, holds(line, seqToSession, at: seqEnd) else { return nil }
        // Before `,"session":"`: the seq's digits (no leading zero), then `"seq":`.
        var digits = seqEnd, seq = 0, scale = 1
        while digits > 0, seqEnd - digits < 18, line[digits - 1] >= 0x30, line[digits - 1] <= 0x39 {
            digits -= 1
            seq += Int(line[digits] - 0x30) * scale
            scale *= 10
        }
        guard digits < seqEnd, line[digits] != 0x30, holds(line, seqKey, at: digits - seqKey.count),
              let t = Timestamp(rfc3339Bytes: UnsafeRawBufferPointer(rebasing: line[tStart..<tEnd]))
        else { return nil }
        return StartTail(beforeEnd: digits - seqKey.count, seq: seq, id: idStart..<idEnd, t: t)
    }
    private struct StartTail {
        let beforeEnd: Int
        let seq: Int
        let id: Range<Int>
        let t: Timestamp
    }

    /// Whether `line` holds `bytes` at `offset`.
    private static func holds(_ line: UnsafeRawBufferPointer, _ bytes: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && offset + bytes.count <= line.count && memcmp(line.baseAddress! + offset, bytes, bytes.count) == 0
    }

    /// The runs of sessions `range` of `job`, in order.
    func runs(of job: CommitJob, _ range: Range<Int>) throws(FollowFailure) -> [ScreenProjectionRun] {
        var runs: [ScreenProjectionRun] = []
        runs.reserveCapacity(range.count)
        var line = range.lowerBound == 0 ? 0 : job.runEnds[range.lowerBound - 1]
        let parsed = job.parsed
        for i in range {
            runs.append(try run(job.sessions[i], lines: job.lines[line..<job.runEnds[i]], arena: job.arena, parsed: parsed))
            line = job.runEnds[i]
        }
        return runs
    }

    /// One session's run: its lines followed from its state, its rows taken.
    private func run(_ session: WriterSession, lines: ArraySlice<CommitPlan.Line>, arena: ByteBuffer,
                     parsed: borrowing ParsedEvents) throws(FollowFailure) -> ScreenProjectionRun {
        var first: (seq: Int, t: Timestamp)?
        var sawStart = false, startTemplate: String?
        /// Folds the event of the line `bytes`; `template`, its template when it is a known `session.start`.
        func follow(_ event: Event, _ bytes: UnsafeRawBufferPointer, template: String?) {
            if first == nil { first = (event.seq, event.t) }
            session.screens!.add(event, names: names)
            // The run's first session.start (the one it keeps, if any): its template from its line (stored lines are canonical).
            if !sawStart, case .sessionStart = event.kind {
                sawStart = true
                startTemplate = template ?? Self.startTail(bytes).flatMap { tail in
                    tail.seq == event.seq && tail.t == event.t
                        ? ScreenProjectionBlock.template(before: UnsafeRawBufferPointer(rebasing: bytes[..<tail.beforeEnd])) : nil
                }
            }
        }
        for entry in lines {
            let bytes = UnsafeRawBufferPointer(start: arena.base + entry.start, count: entry.length)
            // The line's event, handed to `follow` as it is made (no optional or tuple to copy it through):
            // the one that came parsed, a known session.start's, or the line parsed here.
            if !parsed.isEmpty, let event = parsed.event(at: entry.start) {
                follow(event, bytes, template: nil)
            } else if let tail = Self.startTail(bytes), let start = start(bytes, tail) {
                follow(start.event, bytes, template: start.template)
            } else {
                do { follow(try parser.parse(bytes), bytes, template: nil) } catch {
                    throw FollowFailure(why: "session \(session.key.string): a line does not parse as an event")
                }
            }
        }
        guard let first else { throw FollowFailure(why: "session \(session.key.string): a run without lines") }
        let run = session.screens!.takeRun()
        var projected = ScreenProjectionRun(session: session.key.string, firstSeq: first.seq, firstT: first.t,
                                            sessionStart: run.sessionStart, occurrences: run.occurrences)
        if run.sessionStart != nil { projected.sessionStartTemplate = startTemplate }
        return projected
    }
}
