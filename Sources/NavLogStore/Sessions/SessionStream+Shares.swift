import NavLogCore

extension SessionStream {
    /// The NDJSON file the stream reads in ``workers`` shares at once
    /// (``NDJSONShare``), one thread each: a stream of that one file, a
    /// regular file (not standard input or a pipe, which can be read only
    /// once), with more than one worker.
    var sharedNDJSONFile: String? {
        guard workers > 1, sources.count == 1, case .ndjson(let path) = sources[0], path != "-",
              case .regularFile = FileSystem.status(path) else { return nil }
        return path
    }

    /// ``scan(keepsMarks:readsSessionStarts:make:projected:_:)`` of one
    /// NDJSON file in ``workers`` shares, each on a thread of its own with
    /// its own accumulator: the threads first skim a part of the file each
    /// for the sessions' ends (``SessionFirstRead``), then every thread reads
    /// the whole file and parses only its share's lines, so each session is
    /// counted once, whole, its seqs assigned in file order. Rejected lines are noted as one reader
    /// notes them (``RejectionOrder``). The first share's failure is thrown,
    /// else ``SessionStreamError/rejectedLines(path:count:)`` when lines
    /// were rejected.
    func scanShares<Accumulator>(
        _ path: String, keepsMarks: Bool, readsSessionStarts: Bool, make: () -> Accumulator,
        _ body: @escaping @Sendable (inout Accumulator, SessionOccurrences) -> Void
    ) throws(SessionStreamError) -> [Accumulator] {
        let slots = (0..<workers).map { _ in ShareSlot(make()) }
        try readShares(path, shares: slots.count, { read in
            let slot = slots[read.share.index]
            do throws(SessionStreamError) {
                try forEachNDJSONSession(path, read, keepsMarks: keepsMarks, readsSessionStarts: readsSessionStarts,
                                         names: ScreenNameCache()) { session in body(&slot.value, session) }
            } catch {
                slot.failure = error
            }
        }, failure: { slots.lazy.compactMap(\.failure).first })
        return slots.map(\.value)
    }
}

/// One share's accumulator and failure: touched by its own thread until
/// that thread is joined, then by the caller.
private final class ShareSlot<Accumulator>: @unchecked Sendable {
    var value: Accumulator
    var failure: SessionStreamError?
    init(_ value: Accumulator) { self.value = value }
}
