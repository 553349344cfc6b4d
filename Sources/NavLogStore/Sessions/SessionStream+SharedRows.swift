import NavLogCore

extension SessionStream {
    /// ``writeRows(redactor:to:_:)`` of one NDJSON file (``sharedNDJSONFile``)
    /// in ``workers`` shares (``NDJSONShare``), one thread each, when
    /// `Rows` makes each session's rows from that session alone
    /// (``ExportRows/rowsFollowSessions``): each thread reads the whole file,
    /// parses its share's lines and renders their rows with its own writer
    /// from `make`, and the rows are written merged back in line order
    /// (``ShareRowMerge``), the bytes one reader writes. Rejected lines are
    /// noted as one reader notes them (``RejectionOrder``). A share's
    /// failure stops the writing (the chunks of lines before it written)
    /// and is thrown; else ``SessionStreamError/rejectedLines(path:count:)``
    /// when lines were rejected. `chunkLines`: lines a chunk of merged rows covers.
    func writeSharedRows<Rows: ExportRows>(
        _ path: String, redactor: EventRedactor?, chunkLines: Int = ShareRowMerge.defaultChunkLines,
        to output: @escaping @Sendable ([UInt8]) -> Void, _ make: @escaping @Sendable () -> Rows
    ) throws(SessionStreamError) {
        let order = RejectionOrder(path: path, shares: workers, onNote: onNote)
        let merge = ShareRowMerge(shares: workers, chunkLines: chunkLines, output: output)
        let firstRead = SessionFirstRead(parts: workers, bytes: SessionSource.ndjson(path).fileSize)
        let read: @Sendable (Int) -> Void = { index in
            let share = NDJSONShare(index: index, count: workers)
            var rows = make()
            var screens = NDJSONScreenViews()
            var current = 0
            var chunk = merge.spareChunk()
            defer { order.finish(share: index) }
            do throws(SessionStreamError) {
                _ = try forEachNDJSONEvent(
                    path, share: share, firstRead: firstRead, keepsSessionStartObjects: rows.readsSessionStarts,
                    keepsRestoredObjects: Rows.readsRestoredObjects,
                    rejecting: { line, reason in order.reject(share: index, line: line, reason) },
                    passed: { line in order.passed(share: index, line: line) },
                    start: { NavigationProjector(session: $0.session) }
                ) { original, _, line, state in
                    let at = merge.chunk(of: line)
                    while current < at {
                        merge.deposit(share: index, chunk: current, chunk)
                        chunk = merge.spareChunk()
                        current += 1
                    }
                    let event = redactor.map { $0.redact(original) } ?? original
                    let view = screens.view(after: event, state: &state)
                    chunk.add(line: line) { rows.write(event, view: view, to: &$0) }
                }
                merge.deposit(share: index, chunk: current, chunk, waits: false)
                merge.finish(share: index, failure: nil)
            } catch {
                merge.finish(share: index, failure: error)
            }
        }
        let threads = (1..<workers).map { index in WorkerThread { read(index) } }
        read(0)
        for thread in threads { thread.join() }
        if let failure = merge.failure { throw failure }
        if order.count > 0 { throw .rejectedLines(path: path, count: order.count) }
    }
}
