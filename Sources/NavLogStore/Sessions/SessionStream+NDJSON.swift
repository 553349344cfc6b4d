import NavLogCore

extension SessionStream {
    /// Calls `body` with every event of an NDJSON input, in file order, with
    /// its seq assigned per session (docs/events.md), and `endsSession: true`
    /// on its session's last line (``SessionEnds``): after that call the
    /// session has no more events, so its state can go. Memory follows the
    /// sessions under way, not the sessions seen. Each rejected line is
    /// noted; a file with rejected lines ends the read after it
    /// (``SessionStreamError/rejectedLines(path:count:)``), and a session
    /// whose last line is rejected gets no `endsSession`.
    func forEachNDJSONEvent(_ path: String, _ body: (Event, _ endsSession: Bool) -> Void) throws(SessionStreamError) {
        let read = NDJSONShareRead.whole(path, onNote: onNote)
        _ = try forEachNDJSONEvent(path, read, start: { _ in () }) { event, endsSession, _, _ in body(event, endsSession) }
        try read.endWhole()
    }

    /// Reads NDJSON file `path` in `shares` shares (``NDJSONShare``):
    /// `read` runs for share 0 on this thread and for each other share on a
    /// thread of its own (a share may wait for the others). Once every share
    /// has ended, throws what `failure` then says, else
    /// ``SessionStreamError/rejectedLines(path:count:)`` when lines were rejected.
    func readShares(_ path: String, shares: Int, _ read: @escaping @Sendable (NDJSONShareRead) -> Void,
                    failure: () -> SessionStreamError?) throws(SessionStreamError) {
        let rejections = RejectionOrder(path: path, shares: shares, onNote: onNote)
        let firstRead = SessionFirstRead(parts: shares, bytes: SessionSource.ndjson(path).fileSize)
        let run: @Sendable (Int) -> Void = { index in
            defer { rejections.finish(share: index) }
            read(NDJSONShareRead(share: NDJSONShare(index: index, count: shares), firstRead: firstRead, rejections: rejections))
        }
        let threads = (1..<shares).map { index in WorkerThread { run(index) } }
        run(0)
        for thread in threads { thread.join() }
        if let failure = failure() { throw failure }
        try rejections.end()
    }

    /// Calls `body` with each session of one share of an NDJSON input
    /// (``forEachNDJSONEvent(_:_:keepsObjects:keepsRestoredObjects:start:_:)``), complete, at
    /// its last line: the sessions under way are followed side by side,
    /// so memory follows them, not the sessions seen. Sessions with no
    /// last line (it was rejected, or its id shares a hash with a later
    /// session's) come at the end, in the order they appeared.
    /// `readsSessionStarts: false` (the tally never looks at
    /// `session.start`'s fields) may leave their `app` and `device` out;
    /// `state.restore`'s object is left out (its scene is what a session's
    /// occurrences follow).
    func forEachNDJSONSession(_ path: String, _ read: NDJSONShareRead, keepsMarks: Bool, readsSessionStarts: Bool = true,
                              names: ScreenNameCache?, _ body: (SessionOccurrences) -> Void) throws(SessionStreamError) {
        let unended = try forEachNDJSONEvent(
            path, read, keepsObjects: readsSessionStarts, keepsRestoredObjects: false,
            start: { SessionOccurrences(session: $0.session, keepsMarks: keepsMarks) }
        ) { event, endsSession, _, recorder in
            recorder.add(event, names: names)
            if endsSession { body(recorder) }
        }
        for recorder in unended { body(recorder) }
    }

    /// Calls `body` with every event of one share of an NDJSON input
    /// (``NDJSONShareRead``), in file order, with its seq assigned per
    /// session and `endsSession: true` on its session's last line (``SessionEnds``),
    /// and its line number. The other shares' lines, which the first read
    /// found by skimming each line for its session, are passed over; the
    /// first read is `read.firstRead`'s part `share.index` when it has
    /// several (the other shares' threads read the others). Each of the
    /// share's rejected lines goes to `read` (its line number and why),
    /// nothing is thrown for them, and `read` is told now and then the last
    /// line read. `keepsObjects: false` may leave
    /// `session.start`'s `app` and `device` and any `meta` out of its events, and
    /// `keepsRestoredObjects: false` `state.restore`'s object (its scene is
    /// kept; ``EventLineParser/init(keepingObjects:keepingRestoredJSON:)``).
    ///
    /// Each session under way has a state, kept beside its last seq
    /// (one lookup a line for both): `start` makes it at the session's first
    /// accepted event, `body` is given it with each event, and it goes after
    /// the session's last line. Returns the states of the sessions with no
    /// last line (it was rejected, or their id shares a hash with a later
    /// session's), in the order they appeared.
    func forEachNDJSONEvent<State>(_ path: String, _ read: NDJSONShareRead,
                                   keepsObjects: Bool = true, keepsRestoredObjects: Bool = true,
                                   start: (Event) -> State,
                                   _ body: (Event, _ endsSession: Bool, _ line: Int, inout State) -> Void) throws(SessionStreamError) -> [State] {
        let ends = try SessionEnds(path: path, share: read.share, firstRead: read.firstRead)
        let reader: NDJSONLineReader
        do { reader = try NDJSONLineReader(path: ends.readPath) } catch { throw .ndjson(ends.named(error)) }
        var parser = EventLineParser(keepingObjects: keepsObjects,
                                     keepingRestoredJSON: keepsRestoredObjects)
        var open = SessionSlots<UnderWay<State>>()
        var appeared = 0
        var nextEnd = try ends.next()
        let lines = ends.lines
        do throws(NDJSONFailure<SessionStreamError>) {
            try reader.forEachLine { (line) throws(SessionStreamError) in
                // Lines written after the first read are not read, nor
                // those of other shares (the first read found whose they are).
                guard line.number <= lines else { return }
                if line.number & 0xFFF == 0 { read.passed(line.number) }
                guard ends.parses(line.number), !line.isBlank else { return }
                let isEnd = line.number == nextEnd
                if isEnd { nextEnd = try ends.next() }
                if let length = line.overLimitBytes {
                    return read.reject(line.number, .lineTooLong(bytes: length, limit: EventParser.maxLineBytes))
                }
                do throws(EventParseError) {
                    var event = try parser.parse(line.bytes)
                    let slot = open.slot(event.session) { UnderWay() }
                    // One access in place, the event lent (reading the slot's value, or
                    // capturing the event, would copy it).
                    try open.update(slot, with: &event) { (underWay, event) throws(EventParseError) in
                        // On a refusal the session's last seq stays as it was (docs/events.md "Numbering").
                        do throws(SeqRefusal) { event.seq = try Sequencer.seq(for: event.seq, after: underWay.seq) } catch {
                            throw error.parseError
                        }
                        if underWay.state == nil {
                            appeared += 1
                            underWay.appeared = appeared
                            underWay.state = start(event)
                        }
                        underWay.seq = event.seq
                        body(event, isEnd, line.number, &underWay.state!)
                    }
                    if isEnd { open.remove(at: slot) }
                } catch {
                    read.reject(line.number, error)
                }
            }
        } catch {
            switch error {
            case .read(let error): throw .ndjson(ends.named(error))
            case .body(let error): throw error
            }
        }
        return open.remaining.filter { $0.state != nil }.sorted { $0.appeared < $1.appeared }.map { $0.state! }
    }
}

/// A session under way in an NDJSON input: its last seq and, once an
/// event of it is accepted, its reader's state and when it first appeared.
private struct UnderWay<State> {
    var seq = 0
    var appeared = 0
    var state: State?
}
