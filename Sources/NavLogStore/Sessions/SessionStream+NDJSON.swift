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
        try notingRejections(path) { (rejecting) throws(SessionStreamError) in
            try forEachNDJSONEvent(path, share: .whole, rejecting: rejecting) { event, endsSession, _ in body(event, endsSession) }
        }
    }

    /// Runs `read` with a sink that notes each rejected line it is given, in
    /// order, numbered from 1; throws ``SessionStreamError/rejectedLines(path:count:)``
    /// after it when there were any.
    func notingRejections(
        _ path: String, _ read: (_ rejecting: (_ line: Int, EventParseError) -> Void) throws(SessionStreamError) -> Void
    ) throws(SessionStreamError) {
        var rejected = 0
        try read { line, reason in
            rejected += 1
            onNote(.rejected(RejectedLine(file: path, line: line, reason: reason), ordinal: rejected))
        }
        if rejected > 0 { throw .rejectedLines(path: path, count: rejected) }
    }

    /// Calls `body` with each session of one share of an NDJSON input
    /// (``forEachNDJSONEvent(_:share:rejecting:passed:_:)``), complete, at
    /// its last line: the sessions under way are followed side by side,
    /// so memory follows them, not the sessions seen. Sessions with no
    /// last line (it was rejected, or its id shares a hash with a later
    /// session's) come at the end, in the order they appeared.
    /// `readsSessionStarts: false` (the tally never looks at
    /// `session.start`'s fields) may leave their `app` and `device` out;
    /// `state.restore`'s object is left out (its scene is what a session's
    /// occurrences follow).
    func forEachNDJSONSession(_ path: String, share: NDJSONShare, firstRead: SessionFirstRead = .whole,
                              keepsMarks: Bool, readsSessionStarts: Bool = true, names: ScreenNameCache?,
                              rejecting: (_ line: Int, EventParseError) -> Void, passed: (_ line: Int) -> Void = { _ in },
                              _ body: (SessionOccurrences) -> Void) throws(SessionStreamError) {
        let unended = try forEachNDJSONEvent(
            path, share: share, firstRead: firstRead, keepsSessionStartObjects: readsSessionStarts,
            keepsRestoredObjects: false, rejecting: rejecting, passed: passed,
            start: { SessionOccurrences(session: $0.session, keepsMarks: keepsMarks) }
        ) { event, endsSession, _, recorder in
            recorder.add(event, names: names)
            if endsSession { body(recorder) }
        }
        for recorder in unended { body(recorder) }
    }

    /// ``forEachNDJSONEvent(_:_:)`` for the sessions of one share of the
    /// input (``NDJSONShare``): the other shares' lines, which the first
    /// read found by skimming each line for its session, are passed over.
    /// The first read is `firstRead`'s part `share.index` when it has
    /// several (the other shares' threads read the others).
    /// Each of the share's rejected lines goes to `rejecting` (its line
    /// number and why), nothing is thrown for them, and `passed` is told
    /// now and then the last line read. `keepsSessionStartObjects: false`
    /// may leave `session.start`'s `app` and `device` out of its events,
    /// and `keepsRestoredObjects: false` `state.restore`'s object (its
    /// scene is kept; ``EventLineParser/init(keepingSessionStartObjects:keepingRestoredJSON:)``).
    /// `body` is told each event's line number too.
    func forEachNDJSONEvent(_ path: String, share: NDJSONShare, firstRead: SessionFirstRead = .whole,
                            keepsSessionStartObjects: Bool = true, keepsRestoredObjects: Bool = true,
                            rejecting: (_ line: Int, EventParseError) -> Void, passed: (_ line: Int) -> Void = { _ in },
                            _ body: (Event, _ endsSession: Bool, _ line: Int) -> Void) throws(SessionStreamError) {
        _ = try forEachNDJSONEvent(path, share: share, firstRead: firstRead, keepsSessionStartObjects: keepsSessionStartObjects,
                                   keepsRestoredObjects: keepsRestoredObjects, rejecting: rejecting, passed: passed,
                                   start: { _ in () }) { event, endsSession, line, _ in body(event, endsSession, line) }
    }

    /// ``forEachNDJSONEvent(_:share:firstRead:keepsSessionStartObjects:keepsRestoredObjects:rejecting:passed:_:)``
    /// with a state for each session under way, kept beside its last seq
    /// (one lookup a line for both): `start` makes it at the session's first
    /// accepted event, `body` is given it with each event, and it goes after
    /// the session's last line. Returns the states of the sessions with no
    /// last line (it was rejected, or their id shares a hash with a later
    /// session's), in the order they appeared.
    func forEachNDJSONEvent<State>(_ path: String, share: NDJSONShare, firstRead: SessionFirstRead = .whole,
                                   keepsSessionStartObjects: Bool = true, keepsRestoredObjects: Bool = true,
                                   rejecting: (_ line: Int, EventParseError) -> Void, passed: (_ line: Int) -> Void = { _ in },
                                   start: (Event) -> State,
                                   _ body: (Event, _ endsSession: Bool, _ line: Int, inout State) -> Void) throws(SessionStreamError) -> [State] {
        let ends = try SessionEnds(path: path, share: share, firstRead: firstRead)
        let reader: NDJSONLineReader
        do { reader = try NDJSONLineReader(path: ends.readPath) } catch { throw .ndjson(ends.named(error)) }
        var parser = EventLineParser(keepingSessionStartObjects: keepsSessionStartObjects,
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
                if line.number & 0xFFF == 0 { passed(line.number) }
                guard ends.parses(line.number), !line.isBlank else { return }
                let isEnd = line.number == nextEnd
                if isEnd { nextEnd = try ends.next() }
                if let length = line.overLimitBytes {
                    return rejecting(line.number, .lineTooLong(bytes: length, limit: EventParser.maxLineBytes))
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
                    rejecting(line.number, error)
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
