import Dispatch
import NavLogCore

extension SessionStream {
    /// Logs up to this size (bytes on disk) are rendered into a buffer ahead of their turn.
    static let bufferedLogBytes: Int64 = 4 << 20
    /// The most sources rendered ahead of the one being written.
    static let aheadLimit = 32
    /// The rows of a piece of a store rendered from its projection (about 1 MiB of CSV).
    static let rowsPerPiece = 16_384
    /// The most pieces a store part is cut into.
    static let maxSplit = 256

    /// Writes rows for every event of the stream, in source order, as if the
    /// sources were read one by one: each worker renders a whole small log,
    /// or a piece of a store read from its screen projection (when `Rows`
    /// reads it), into a buffer handed to `output` once every earlier source
    /// has been; a large log or an NDJSON file is streamed by its worker when
    /// its turn comes. At most ``aheadLimit`` sources or pieces are rendered
    /// ahead of the one being written, so memory stays bounded. After a
    /// failing source (its rows up to the failure written) nothing more is
    /// written, and its failure is thrown.
    ///
    /// - Parameters:
    ///   - redactor: applied to each event before it is projected and written.
    ///   - output: called with the next bytes, in order, from one thread at a time.
    ///   - make: a fresh row writer, for each source (one writer may be handed
    ///     the projected sessions of several pieces of a store, one after another).
    public func writeRows<Rows: ExportRows>(
        redactor: EventRedactor?, to output: @escaping @Sendable ([UInt8]) -> Void,
        _ make: @escaping @Sendable () -> Rows
    ) throws(SessionStreamError) {
        try writeRows(redactor: redactor, rowsPerPiece: Self.rowsPerPiece, to: output, make)
    }

    /// ``writeRows(redactor:to:_:)`` with a store's projected parts cut into
    /// pieces of about `rowsPerPiece` rows (a power of two of pieces a part).
    package func writeRows<Rows: ExportRows>(
        redactor: EventRedactor?, rowsPerPiece: Int, to output: @escaping @Sendable ([UInt8]) -> Void,
        _ make: @escaping @Sendable () -> Rows
    ) throws(SessionStreamError) {
        if Rows.rowsFollowSessions, let path = sharedNDJSONFile {
            return try writeSharedRows(path, shares: workers, redactor: redactor, to: output, make)
        }
        let projected = redactor == nil && Rows.readsProjection
        let withTemplates = projected && make().readsSessionStarts
        let work = projected ? Self.projectedPieces(sources, withTemplates: withTemplates, rowsPerPiece: rowsPerPiece) : sources
        let shared = RowTurns(sources: work, output: output)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let scratch = LogScanScratch()
            // One writer for every projected piece this worker renders (its tables of names made once).
            var projectedRows: Rows?
            while let (index, source) = shared.take() {
                // An NDJSON file is read whole, as one share (writeSharedRows), at its turn.
                if case .ndjson(let path) = source {
                    guard shared.waitForTurn(index) else { continue }
                    do throws(SessionStreamError) {
                        try writeSharedRows(path, shares: 1, redactor: redactor, to: output, make)
                        shared.finishTurn(index, failure: nil)
                    } catch {
                        shared.finishTurn(index, failure: error)
                    }
                    continue
                }
                var out = shared.spareBuffer()
                if projected, case .segments(let part) = source,
                   let set = part.projection, let projection = set.shared(withTemplates: withTemplates) {
                    // A piece of a store read from its screen projection: rendered ahead, in memory.
                    var rows = projectedRows ?? make()
                    set.forEachProjectedSession(of: part, projection) { session in rows.write(projected: session, to: &out) }
                    projectedRows = rows
                    shared.deposit(index, out, failure: nil)
                    continue
                }
                // A small log is rendered ahead, into a buffer; a large one, or a store part read from its events, streamed at its turn.
                var rows = make()
                let ahead = source.fileSize <= Self.bufferedLogBytes
                if !ahead { guard shared.waitForTurn(index) else { continue } }
                var failure: SessionStreamError?
                do throws(SessionStreamError) {
                    try events(of: source, redactor: redactor, scratch: scratch) { event, view in
                        rows.write(event, view: view, to: &out)
                        if !ahead, out.count >= 1 << 16 {
                            output(out)
                            out.removeAll(keepingCapacity: true)
                        }
                    }
                } catch {
                    failure = error
                }
                if ahead {
                    shared.deposit(index, out, failure: failure)
                } else {
                    output(out)
                    shared.finishTurn(index, failure: failure)
                }
            }
        }
        if let failure = shared.failure { throw failure }
    }

    /// The sources with each store part whose screen projection is read cut
    /// into pieces of about `rowsPerPiece` rows: for a part `p` of `n`, the
    /// parts `p·f ..< (p + 1)·f` of `n·f`, the same sessions in the same
    /// order (`n` and `f` powers of two, so the hash ranges split exactly).
    /// The projections are loaded here, before the workers start, so that
    /// loading uses every core.
    static func projectedPieces(_ sources: [SessionSource], withTemplates: Bool, rowsPerPiece: Int) -> [SessionSource] {
        var pieces: [SessionSource] = []
        pieces.reserveCapacity(sources.count)
        for source in sources {
            guard case .segments(let part) = source, let set = part.projection,
                  let projection = set.shared(withTemplates: withTemplates), part.parts.nonzeroBitCount == 1 else {
                pieces.append(source)
                continue
            }
            let rows = projection.blocks.prefix(part.commits).reduce(0) { $0 + $1.rowCount }
            var split = 1
            while split < maxSplit, rows / (part.parts * split) > max(1, rowsPerPiece) { split *= 2 }
            for q in 0..<split {
                var piece = SegmentStorePart(store: part.store, commits: part.commits, part: part.part * split + q, parts: part.parts * split)
                piece.projection = set
                pieces.append(.segments(piece))
            }
        }
        return pieces
    }

    /// Every event of a log or a store part, redacted when asked, with the
    /// screen view it emitted, one session's state at a time.
    private func events(of source: SessionSource, redactor: EventRedactor?, scratch: LogScanScratch,
                        _ body: (Event, ScreenView?) -> Void) throws(SessionStreamError) {
        var state = NavigationProjector(session: "")
        var views: [ScreenView] = []
        try forEachEventBySession(in: source, scratch: scratch) { original, startsSession in
            let event = redactor.map { $0.redact(original) } ?? original
            if startsSession { state = NavigationProjector(session: event.session) }
            state.apply(event, screenViews: &views)
            body(event, views.last)
            views.removeAll(keepingCapacity: true)
        }
    }
}
