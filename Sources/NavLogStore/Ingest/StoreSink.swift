import NavLogCore

/// The one writing side of `ingest`, every `import` and `store upgrade`:
/// events into a segment store through one ``SegmentWriter``, numbered in
/// one place. An event without a seq gets ``Sequencer/seq(for:after:)``
/// after the session's last seq stored or accepted (``SegmentWriter/lastSeq(of:)``);
/// an event with one is handed to the writer as it is, which stores it when
/// it is above that seq, counts it as a duplicate when the same line is
/// stored at it, and refuses it otherwise (a conflict, or a seq that does
/// not increase: contract §5, schemas/segment-store.md §8).
///
/// It counts what it did; the sessions it saw are remembered by their id
/// bytes (``SessionNumbers``) to count sessions, not held open.
final class StoreSink {
    /// The writer every event goes through.
    let writer: SegmentWriter
    /// Events stored, and events already stored (no-ops).
    private(set) var stored = 0
    private(set) var duplicates = 0
    /// Sessions that got an event stored, and of those, the ones the store did not hold before.
    private(set) var sessionsStored = 0
    private(set) var newSessions = 0

    private var canonical = CanonicalWriter(capacity: 1024)
    private var numbered: [Event] = []
    private var sessions = SessionNumbers()
    /// Per session seen, by number: ``storedBit``, ``wasEmptyBit``.
    private var flags: [UInt8] = []
    private static let storedBit: UInt8 = 1
    private static let wasEmptyBit: UInt8 = 2

    init(writer: SegmentWriter) {
        self.writer = writer
    }

    /// Stores one canonical line, already read: its `seq`, `t`, and its
    /// session id's bytes at `session`. Returns why it is refused, or `nil`
    /// (stored, or already stored).
    ///
    /// - Throws: ``SegmentStoreError`` when the store cannot be read or written.
    func store(line: UnsafeRawBufferPointer, session: Range<Int>, seq: Int, t: Timestamp) throws(SegmentStoreError) -> Refusal? {
        guard !session.isEmpty else { return .emptySession }
        guard Self.inRange(t) else { return .timeOutOfRange }
        let number = try see(UnsafeRawBufferPointer(rebasing: line[session]))
        return try add(session: number) { () throws(SegmentStoreError) in
            try writer.add(line, seq: seq, t: t.milliseconds, session: session)
        }
    }

    /// Hands `line`, of session `number`, to the writer and counts what it did; returns why it was refused, or `nil`.
    private func add(_ line: UnsafeRawBufferPointer, session number: Int) throws(SegmentStoreError) -> Refusal? {
        try add(session: number) { () throws(SegmentStoreError) in try writer.add(line) }
    }

    /// Runs one of the writer's `add`s for session `number` and counts what it did; returns why it was refused, or `nil`.
    private func add(session number: Int, _ write: () throws(SegmentStoreError) -> SegmentWriter.Outcome) throws(SegmentStoreError) -> Refusal? {
        let outcome: SegmentWriter.Outcome
        do { outcome = try write() } catch {
            if let refusal = Self.refusal(error) { return refusal }
            throw error
        }
        count(outcome, session: number)
        return nil
    }

    /// Stores one event, numbering it when it has no seq. Returns why it is
    /// refused, or `nil`.
    func store(event: Event) throws(SegmentStoreError) -> Refusal? {
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
    /// session's last), checks them all, then stores them.
    private func storeNumbered() throws(SegmentStoreError) -> Refusal? {
        guard let first = numbered.first else { return nil }
        guard !first.session.isEmpty else { return .emptySession }
        var seq = try writer.lastSeq(of: first.session)
        var lines: [[UInt8]] = []
        lines.reserveCapacity(numbered.count)
        for i in numbered.indices {
            if numbered[i].seq == 0 {
                do throws(SeqRefusal) { seq = try Sequencer.seq(for: 0, after: seq) } catch { return .seq(error) }
                numbered[i].seq = seq
            } else {
                seq = numbered[i].seq
            }
            guard Self.inRange(numbered[i].t) else { return .timeOutOfRange }
            canonical.reset()
            canonical.write(numbered[i])
            guard canonical.bytes.count <= EventParser.maxLineBytes else { return .lineTooLong(bytes: canonical.bytes.count) }
            lines.append(canonical.bytes)
        }
        var id = first.session
        let number = try id.withUTF8 { raw in Result { () throws(SegmentStoreError) in try see(UnsafeRawBufferPointer(raw)) } }.get()
        for line in lines {
            let refusal = try line.withUnsafeBytes { raw in
                Result { () throws(SegmentStoreError) in try add(raw, session: number) }
            }.get()
            if let refusal { return refusal }
        }
        return nil
    }

    /// The number of session `id` in this run; for a session not seen yet,
    /// notes whether the store held nothing of it.
    private func see(_ id: UnsafeRawBufferPointer) throws(SegmentStoreError) -> Int {
        let (number, isNew) = sessions.number(of: id)
        if isNew {
            let last = try writer.lastSeq(of: String(decoding: id, as: UTF8.self))
            flags.append(last == 0 ? Self.wasEmptyBit : 0)
        }
        return number
    }

    private func count(_ outcome: SegmentWriter.Outcome, session number: Int) {
        guard outcome == .stored else {
            duplicates += 1
            return
        }
        stored += 1
        if flags[number] & Self.storedBit == 0 {
            flags[number] |= Self.storedBit
            sessionsStored += 1
            if flags[number] & Self.wasEmptyBit != 0 { newSessions += 1 }
        }
    }

    /// The refusal a writer's error stands for, or `nil` when it is trouble, not a refusal.
    private static func refusal(_ error: SegmentStoreError) -> Refusal? {
        switch error {
        case .seqNotIncreasing(_, let seq, let last): .seq(.notIncreasing(seq: seq, previous: last))
        case .conflict, .invalidEvent: .store(error)
        default: nil
        }
    }

    /// Whether `t` is within years 0000–9999.
    @inline(__always)
    private static func inRange(_ t: Timestamp) -> Bool {
        t.milliseconds >= LogWriter.earliestT && t.milliseconds <= LogWriter.latestT
    }
}
