import NavLogCore

/// The reading side of an ingest's sharing out of lines: each session, told
/// apart by its exact bytes, is owned by one thread, and each line goes to
/// its session's owner. A new session goes to the thread with the fewest
/// lines still to handle (the caller counts them: those dealt and not yet
/// handled), so that a thread that falls behind gets no new sessions until
/// it catches up, and the threads finish together. A line's session is
/// found by skimming it (``SessionSkim``), or by parsing it when it cannot be skimmed.
final class SessionDealer {
    @exclusivity(unchecked) private var sessions = SessionNumbers()
    /// The owning thread of each session, by number.
    @exclusivity(unchecked) private var owners: [Int] = []
    /// Lines dealt to each thread so far.
    @exclusivity(unchecked) private var lines: [Int]
    @exclusivity(unchecked) private var parser = EventLineParser()

    init(threads: Int) {
        lines = [Int](repeating: 0, count: max(threads, 1))
    }

    /// Adds `text`, line `number` of its input, to its session owner's share
    /// of `chunk`; the chunks handed out before it and not yet done are
    /// `inFlight` (for a new session, the lines each thread has still to
    /// handle are those of `chunk` and those).
    ///
    /// - Throws: ``EventParseError`` when the line could not be skimmed and
    ///   does not parse: it belongs to no session.
    func deal(_ text: UnsafeRawBufferPointer, number: Int, to chunk: IngestChunk,
              inFlight: [IngestChunk]) throws(EventParseError) {
        let session: (number: Int, isNew: Bool)
        let skimmed = SessionSkim.sessionBytes(in: text)
        if let range = skimmed {
            session = sessions.number(of: UnsafeRawBufferPointer(rebasing: text[range]))
        } else {
            session = sessions.number(of: try parser.parse(text).session)
        }
        if session.isNew {
            // The fewest lines to handle; on a tie, the fewest dealt.
            var waiting = chunk.shares.map(\.lines.count)
            for other in inFlight { other.addUnhandledLines(to: &waiting) }
            var owner = 0
            for thread in lines.indices
            where (waiting[thread], lines[thread]) < (waiting[owner], lines[owner]) { owner = thread }
            owners.append(owner)
            chunk.shares[owner].newRoutes.append((session.number, sessions.key(session.number)))
        }
        let owner = owners[session.number]
        lines[owner] += 1
        chunk.shares[owner].add(text, number: number, route: session.number, session: skimmed)
    }
}
