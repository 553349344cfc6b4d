import NavLogCore

extension SessionStream {
    /// The rows of one NDJSON file in `shares` shares (``NDJSONShare``),
    /// one thread each (``readShares(_:shares:_:failure:)``): each thread
    /// reads the whole file, parses its share's lines and renders their rows
    /// with its own writer from `make`, and the rows are written merged back
    /// in line order (``ShareRowMerge``), the bytes one reader writes. More
    /// than one share needs rows made from each session alone
    /// (``ExportRows/rowsFollowSessions``): ``writeRows(redactor:to:_:)``
    /// reads ``sharedNDJSONFile`` so, and any other NDJSON source in one
    /// share. A session's state goes at its last line, so memory follows the
    /// sessions under way. Rejected lines are noted as one reader notes them
    /// (``RejectionOrder``). A failure stops the writing (in one share, the
    /// rows of the lines before it written; in several, the chunks of lines
    /// before it) and is thrown; else ``SessionStreamError/rejectedLines(path:count:)``
    /// when lines were rejected. `chunkLines`: lines a chunk of merged rows covers.
    func writeSharedRows<Rows: ExportRows>(
        _ path: String, shares: Int, redactor: EventRedactor?, chunkLines: Int = ShareRowMerge.defaultChunkLines,
        to output: @escaping @Sendable ([UInt8]) -> Void, _ make: @escaping @Sendable () -> Rows
    ) throws(SessionStreamError) {
        let merge = ShareRowMerge(shares: shares, chunkLines: chunkLines, output: output)
        try readShares(path, shares: shares, { read in
            let index = read.share.index
            var rows = make()
            var views: [ScreenView] = []
            var current = 0
            var chunk = merge.spareChunk()
            do throws(SessionStreamError) {
                _ = try forEachNDJSONEvent(
                    path, read, keepsObjects: rows.readsSessionStarts, keepsRestoredObjects: Rows.readsRestoredObjects,
                    start: { NavigationProjector(session: $0.session) }
                ) { original, _, line, state in
                    let at = merge.chunk(of: line)
                    while current < at {
                        merge.deposit(share: index, chunk: current, chunk)
                        chunk = merge.spareChunk()
                        current += 1
                    }
                    let event = redactor.map { $0.redact(original) } ?? original
                    views.removeAll(keepingCapacity: true)
                    state.apply(event, screenViews: &views)
                    chunk.add(line: line) { rows.write(event, view: views.last, to: &$0) }
                }
                merge.deposit(share: index, chunk: current, chunk, waits: false)
                merge.finish(share: index, failure: nil)
            } catch {
                // One share writes what it rendered before the failure, as one reader does.
                if shares == 1 { merge.deposit(share: index, chunk: current, chunk, waits: false) }
                merge.finish(share: index, failure: error)
            }
        }, failure: { merge.failure })
    }
}
