import NavLogCore

/// A session's events and states, read as its storage is best read: a log
/// through its index and checkpoints, a stored session through the store's
/// index, NDJSON folded whole.
extension OneSession {
    /// The session's id and every event, in seq order.
    ///
    /// - Complexity: O(n) time and memory in the session's events; a
    ///   command that needs only a state asks ``state(at:)``.
    public func events() throws(OneSessionError) -> (session: String, events: [Event]) {
        switch storage {
        case .log(let reader, let file):
            var events: [Event] = []
            events.reserveCapacity(reader.eventCount)
            do {
                let cursor = reader.cursor()
                while let event = try cursor.next() { events.append(event) }
            } catch { throw .log(error) }
            guard let first = events.first else { throw .trouble("\(file): no events") }
            return (first.session, events)
        case .stored(let stored):
            do { return (stored.id, try stored.events()) } catch { throw .segments(error) }
        case .ndjson:
            return try ndjson()
        }
    }

    /// The state at `spec`.
    public func state(at spec: StateSpec) throws(OneSessionError) -> NavigationState {
        switch storage {
        case .log(let reader, let file):
            try requireEvents(reader, file)
            do { return try reader.state(at: spec) } catch { throw .log(error) }
        case .stored(let stored):
            do { return try stored.state(at: spec) } catch { throw .segments(error) }
        case .ndjson:
            let (session, events) = try ndjson()
            var projector = NavigationProjector(session: session)
            for event in events where spec.includes(event) { projector.apply(event) }
            return projector.state
        }
    }

    /// Who put each value of the state at `spec` there, folded from the start.
    public func blame(at spec: StateSpec) throws(OneSessionError) -> StateBlame {
        try fold({ StateBlame(session: $0) }) { blame, event in
            if spec.isPast(event) { return true }
            if spec.includes(event) { blame.apply(event) }
            return false
        }
    }

    /// The first event after which the visible screen of its scene matches
    /// `pattern`; for a log, also how many blocks were decompressed.
    public func searchScreen(_ pattern: GlobPattern, context: Int) throws(OneSessionError) -> (search: ScreenSearch, blocks: Int?) {
        let search = try fold({ ScreenSearch(session: $0, pattern: pattern, context: context) }) { $0.visit($1) }
        guard case .log(let reader, _) = storage else { return (search, nil) }
        return (search, reader.blocksDecompressed)
    }

    /// Folds the session's events, in seq order, into the value `start`
    /// makes of its id, until `visit` says it is done: a log is read through
    /// its cursor (no further than that), anything else from ``events()``.
    private func fold<Value>(_ start: (String) -> Value,
                             _ visit: (inout Value, Event) -> Bool) throws(OneSessionError) -> Value {
        var value: Value
        if case .log(let reader, let file) = storage {
            try requireEvents(reader, file)
            do throws(FileError) {
                value = start(try reader.session() ?? "")
                let cursor = reader.cursor()
                while let event = try cursor.next() { if visit(&value, event) { break } }
            } catch { throw .log(error) }
            return value
        }
        let (session, events) = try self.events()
        value = start(session)
        for event in events { if visit(&value, event) { break } }
        return value
    }

    /// Where two sessions first differ. By position, two logs are searched
    /// through their block index (`prepare` is called on each first: a
    /// caller checks or notes their blocks there) and two stored sessions
    /// through their checkpoints' chain hashes; anything else, and `bySeq`, is folded.
    public static func divergence(_ a: OneSession, _ b: OneSession, bySeq: Bool, context: Int,
                                  prepare: (OneSession) throws -> Void) throws -> (DivergenceSearch, DivergenceSearch.Method) {
        switch (a.storage, b.storage) {
        case (.log(let readerA, let fileA), .log(let readerB, let fileB)) where !bySeq:
            try a.requireEvents(readerA, fileA)
            try b.requireEvents(readerB, fileB)
            try prepare(a)
            try prepare(b)
            let outcome: LogBisect.Outcome
            do { outcome = try LogBisect.search(readerA, readerB, context: context) } catch { throw OneSessionError.log(error) }
            return (outcome.search, .init(name: "index", blocksDecompressed: outcome.blocksDecompressed,
                                          skippedEvents: outcome.skippedEvents))
        case (.stored(let storedA), .stored(let storedB)) where !bySeq:
            let outcome: StoredBisect.Outcome
            do { outcome = try StoredBisect.search(storedA, storedB, context: context) } catch { throw OneSessionError.segments(error) }
            return (outcome.search, .init(name: "checkpoints", blocksDecompressed: outcome.blocksDecompressed,
                                          skippedEvents: outcome.skippedEvents))
        default:
            let x = try a.events(), y = try b.events()
            let search = bySeq
                ? DivergenceSearch.firstSeqDivergence(x.events, y.events, sessions: (x.session, y.session), context: context)
                : DivergenceSearch.firstDivergence(x.events, y.events, sessions: (x.session, y.session), context: context)
            return (search, .init(name: "fold"))
        }
    }

    /// An NDJSON input's one session, read whole once. Rejected lines
    /// fail it: no state is computed from half an input.
    private func ndjson() throws(OneSessionError) -> (session: String, events: [Event]) {
        if let ndjsonEvents { return ndjsonEvents }
        guard case .ndjson(let path, let session) = storage else { preconditionFailure("not NDJSON") }
        let reader: NDJSONEventReader
        do { reader = try NDJSONEventReader(path: path) } catch { throw .ndjson(error) }
        var sequencer = Sequencer()
        var bySession: [SessionID: [Event]] = [:]
        var order: [String] = []
        var rejected = 0
        let messages = self.messages
        do {
            try reader.forEach(sequencer: &sequencer) { (result) throws(Never) in
                switch result {
                case .success(let event):
                    if let session, !SessionID.same(event.session, session) { return }
                    let key = SessionID(event.session)
                    if bySession[key] == nil { order.append(event.session) }
                    bySession[key, default: []].append(event)
                case .failure(let reject):
                    rejected += 1
                    if rejected <= Self.rejectsShown { messages.reject(reject) }
                }
            }
        } catch {
            if case .read(let e) = error { throw .ndjson(e) }
        }
        if rejected > 0 { throw .rejected(input: path, count: rejected) }
        if order.count > 1 {
            let names = order.prefix(3).map { JSONValue.string($0).canonicalText }.joined(separator: ", ")
                + (order.count > 3 ? ", …" : "")
            throw .trouble("\(InputName.shown(path)): holds \(order.count) sessions (\(names)); choose one with \(option)")
        }
        guard let only = order.first else {
            if let session { throw .trouble("\(InputName.shown(path)): no events of session \"\(session)\"") }
            throw .trouble("\(InputName.shown(path)): no events")
        }
        ndjsonEvents = (only, bySession[SessionID(only)]!)
        return ndjsonEvents!
    }
}
