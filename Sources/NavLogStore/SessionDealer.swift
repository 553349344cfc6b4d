import NavLogCore

/// The reading side of an ingest's sharing out of lines: each session, told
/// apart by its exact bytes, is owned by one thread (a new one goes to the
/// thread that has had the fewest lines so far), and each line goes to its
/// session's owner. A line's session is found by skimming it
/// (``SessionSkim``), or by parsing it when it cannot be skimmed.
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
    /// of `chunk`.
    ///
    /// - Throws: ``EventParseError`` when the line could not be skimmed and
    ///   does not parse: it belongs to no session.
    func deal(_ text: UnsafeRawBufferPointer, number: Int, to chunk: IngestChunk) throws(EventParseError) {
        let session: (number: Int, isNew: Bool)
        let skimmed = SessionSkim.sessionBytes(in: text)
        if let range = skimmed {
            session = sessions.number(of: UnsafeRawBufferPointer(rebasing: text[range]))
        } else {
            session = sessions.number(of: try parser.parse(text).session)
        }
        if session.isNew {
            var owner = 0
            for thread in lines.indices where lines[thread] < lines[owner] { owner = thread }
            owners.append(owner)
            chunk.shares[owner].newRoutes.append((session.number, sessions.key(session.number)))
        }
        let owner = owners[session.number]
        lines[owner] += 1
        // The chunk holds its shares: no retain of one per line.
        chunk.shares.withUnsafeBufferPointer { shares in
            Unmanaged.passUnretained(shares[owner])._withUnsafeGuaranteedRef {
                $0.add(text, number: number, route: session.number, session: skimmed)
            }
        }
    }
}
