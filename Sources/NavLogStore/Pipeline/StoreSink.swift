import NavLogCore

/// The one writing side of `ingest`, every `import` and `store upgrade`:
/// events into a segment store through one ``SegmentWriter``, numbered in
/// one place. An event without a seq gets ``Sequencer/seq(for:after:)``
/// after the seq of its session's previous line accepted in the same
/// input (``startInput()``; ``SegmentWriter/lastSeqInInput(of:)``), 1 for
/// the session's first line in it: so the same input read again numbers
/// its lines the same way, and stores nothing. An event with a seq, and a
/// numbered one, is handed to the writer, which stores it when it is above
/// the session's last stored seq, counts it as a duplicate when the same
/// line is stored at it, and refuses it otherwise (a conflict, or a seq
/// below the last stored where none is stored; for a numbered line the
/// reason adds that it had no seq: docs/events.md "Numbering", schemas/segment-store.md §8).
final class StoreSink {
    /// The writer every event goes through.
    let writer: SegmentWriter
    /// Events stored, and events already stored (no-ops).
    var stored: Int { writer.counts.stored }
    /// Of the events stored, those of the commits that landed: after a failed commit, fewer.
    var committed: Int { writer.counts.committed }
    var duplicates: Int { writer.counts.duplicates }
    /// Sessions that got an event stored, and of those, the ones the store did not hold before.
    var sessionsStored: Int { writer.counts.sessions }
    var newSessions: Int { writer.counts.newSessions }

    private var canonical = CanonicalWriter(capacity: 1024)
    private var numbered: [Event] = []
    /// Whether each of ``numbered`` came with its seq.
    private var given: [Bool] = []

    init(writer: SegmentWriter) {
        self.writer = writer
    }

    /// Starts a new input: one file, pipe or upload request (the first starts with the sink).
    func startInput() {
        writer.startInput()
    }

    /// Stores one canonical line, already read: its `seq`, `t`, and its
    /// session id's bytes at `session`. Returns why it is refused, or `nil`
    /// (stored, or already stored).
    ///
    /// - Throws: ``SegmentStoreError`` when the store cannot be read or written.
    func store(line: UnsafeRawBufferPointer, session: Range<Int>, seq: Int, t: Timestamp) throws(SegmentStoreError) -> Refusal? {
        guard !session.isEmpty else { return .emptySession }
        guard Self.inRange(t) else { return .timeOutOfRange }
        return try add { () throws(SegmentStoreError) in try writer.add(line, seq: seq, t: t.milliseconds, session: session) }
    }

    /// Stores one line as the validating thread judged it
    /// (``IngestValidator``): `written` is the canonical line it wrote, if
    /// it wrote one. Returns why it is refused, or `nil` (stored, already
    /// stored, or blank).
    func store(_ verdict: IngestChunk.Verdict, line: UnsafeRawBufferPointer,
               written: IngestChunk.Written? = nil) throws(SegmentStoreError) -> Refusal? {
        switch verdict {
        case .blank: nil
        case .rejected(let why): why
        case .canonical(let session, let seq, let t): try store(line: line, session: session, seq: seq, t: t)
        case .event(let event): try store(event: event, written: written)
        }
    }

    /// Runs one of the writer's `add`s (which counts what it did); returns why it was refused, or `nil`.
    private func add(_ write: () throws(SegmentStoreError) -> SegmentWriter.Outcome) throws(SegmentStoreError) -> Refusal? {
        do { _ = try write() } catch {
            if let refusal = Self.refusal(error) { return refusal }
            throw error
        }
        return nil
    }

    /// Stores one event, numbering it when it has no seq. Returns why it is
    /// refused, or `nil`. `written`, when given, is the event's canonical
    /// line, stored rather than written again (with the seq put in, when
    /// the event is numbered here).
    func store(event: Event, written: IngestChunk.Written? = nil) throws(SegmentStoreError) -> Refusal? {
        if let written {
            // Nothing to write (most lines of ingest that are not canonical): the checks of ``storeNumbered()``, in its order.
            if let refusal = Self.sessionRefusal(event) { return refusal }
            var event = event, seq: Int? = nil
            let numbered = written.seqSlot >= 0
            if let refusal = try numberAndCheck(&event, given: !numbered, after: &seq, of: event.session) { return refusal }
            func store(_ line: UnsafeRawBufferPointer) throws(SegmentStoreError) -> Refusal? {
                if let refusal = Self.lengthRefusal(line.count) { return refusal }
                return try add(line, event, numbered: numbered)
            }
            guard numbered else { return try store(written.bytes) }
            canonical.reset()
            canonical.append(written.bytes, seq: event.seq, at: written.seqSlot)
            return try canonical.bytes.withUnsafeBytes { line in Result { () throws(SegmentStoreError) in try store(line) } }.get()
        }
        numbered.removeAll(keepingCapacity: true)
        numbered.append(event)
        return try storeNumbered()
    }

    /// Stores the events of one record (all of one session, none with a
    /// seq), numbered one after the other: all of them, or none when one is
    /// refused. Returns why they are refused, or `nil`.
    func store(record events: [Event]) throws(SegmentStoreError) -> Refusal? {
        numbered.removeAll(keepingCapacity: true)
        numbered.append(contentsOf: events)
        return try storeNumbered()
    }

    /// Numbers the events in ``numbered`` (those without a seq, after the
    /// session's previous line in this input), checks them all, then stores
    /// them, each line with its event (the projection follows it as it is).
    private func storeNumbered() throws(SegmentStoreError) -> Refusal? {
        guard let first = numbered.first else { return nil }
        if let refusal = Self.sessionRefusal(first) { return refusal }
        // The session's last seq in this input: asked for only when an event has none.
        var seq: Int? = nil
        given.removeAll(keepingCapacity: true)
        // Kept when there are several: none is stored unless all pass.
        var lines: [[UInt8]] = []
        for i in numbered.indices {
            given.append(numbered[i].seq != 0)
            if let refusal = try numberAndCheck(&numbered[i], given: given[i], after: &seq, of: first.session) { return refusal }
            canonical.reset()
            canonical.write(numbered[i])
            if let refusal = Self.lengthRefusal(canonical.bytes.count) { return refusal }
            if numbered.count > 1 { lines.append(canonical.bytes) }
        }
        // One event (every line of ingest): stored from the writer's bytes, not copied.
        if numbered.count == 1 {
            return try canonical.bytes.withUnsafeBytes { line in
                Result { () throws(SegmentStoreError) in try add(line, numbered[0], numbered: !given[0]) }
            }.get()
        }
        for i in lines.indices {
            let refusal = try lines[i].withUnsafeBytes { line in
                Result { () throws(SegmentStoreError) in try add(line, numbered[i], numbered: !given[i]) }
            }.get()
            if let refusal { return refusal }
        }
        return nil
    }

    /// The rules every event meets before its line is made, in this order:
    /// numbered when its seq is not `given` (after `seq`, the previous
    /// event's of its record, else the last in this input of `session`, its record's), then
    /// its time within range. `seq` becomes the event's. Returns why it is
    /// refused, or `nil`.
    private func numberAndCheck(_ event: inout Event, given: Bool, after seq: inout Int?, of session: String) throws(SegmentStoreError) -> Refusal? {
        if given {
            seq = event.seq
        } else {
            let after: Int
            if let seq { after = seq } else { after = try writer.lastSeqInInput(of: session) }
            do throws(SeqRefusal) { event.seq = try Sequencer.seq(for: 0, after: after) } catch { return .seq(error) }
            seq = event.seq
        }
        return Self.inRange(event.t) ? nil : .timeOutOfRange
    }

    /// The refusal of a canonical line of `count` bytes, over the limit, or `nil`.
    private static func lengthRefusal(_ count: Int) -> Refusal? {
        count <= EventParser.maxLineBytes ? nil : .lineTooLong(bytes: count)
    }

    /// Stores `event`'s canonical `line`, with the event; returns why it is
    /// refused (saying so when it was `numbered` here), or `nil`.
    private func add(_ line: UnsafeRawBufferPointer, _ event: Event, numbered: Bool) throws(SegmentStoreError) -> Refusal? {
        do {
            if let session = SessionSkim.sessionBytes(in: line) {
                _ = try writer.add(line, seq: event.seq, t: event.t.milliseconds, session: session, event: event)
            } else {
                _ = try writer.add(line)
            }
        } catch {
            switch error {
            case .conflict where numbered, .seqNotIncreasing where numbered: return .numbered(seq: event.seq, error)
            default:
                if let refusal = Self.refusal(error) { return refusal }
                throw error
            }
        }
        return nil
    }

    /// The refusal a writer's error stands for, or `nil` when it is trouble, not a refusal.
    private static func refusal(_ error: SegmentStoreError) -> Refusal? {
        switch error {
        case .seqNotIncreasing(_, let seq, let last): .seq(.notIncreasing(seq: seq, previous: last))
        case .conflict, .invalidEvent: .store(error)
        default: nil
        }
    }

    /// Why the session of `event` (the first of a record) is refused, or `nil`.
    private static func sessionRefusal(_ event: Event) -> Refusal? {
        guard !event.session.isEmpty else { return .emptySession }
        return SessionID.problem(event.session).map { .line($0) }
    }

    /// Whether `t` is within years 0000–9999.
    @inline(__always)
    private static func inRange(_ t: Timestamp) -> Bool {
        t.milliseconds >= LogWriter.earliestT && t.milliseconds <= LogWriter.latestT
    }
}
