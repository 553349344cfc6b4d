import NavLogCore

extension ScreenProjectionSet {
    /// Calls `body` with each session of `part` as its projection holds it,
    /// in session-key order, each session's runs in commit order: what
    /// ``SegmentPartScan`` and ``SessionOccurrences`` give from the events
    /// (schemas/screen-projection.md §5). The caller has checked ``blocks``.
    /// Memory: 24 bytes per run of the part.
    func forEachSession(of part: SegmentStorePart, blocks: [ScreenProjectionBlock], keepsMarks: Bool,
                        _ body: (SessionOccurrences) -> Void) {
        forEachProjectedSession(of: part, ScreenProjectionBlocks(blocks)) { body($0.occurrences(keepsMarks: keepsMarks)) }
    }

    /// ``forEachSession(of:blocks:keepsMarks:_:)`` handing out each session's runs, not decoded.
    func forEachProjectedSession(of part: SegmentStorePart, _ projection: ScreenProjectionBlocks,
                                 _ body: (ProjectedSession) -> Void) {
        struct Entry {
            var hash: UInt64
            var run: ProjectedRun
        }
        let blocks = projection.blocks
        // The hashes made when the blocks were loaded, else made here.
        let loaded = keyHashes
        var entries: [Entry] = []
        for (c, block) in blocks.prefix(part.commits).enumerated() {
            let hashes = c < loaded.count && loaded[c].count == block.sessionCount ? loaded[c]
                : (0..<block.sessionCount).map { i in block.sessionID(i).withUnsafeBytes { XXHash64.hash($0) } }
            var lo = 0, hi = hashes.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if hashes[mid] < part.lowestHash { lo = mid + 1 } else { hi = mid }
            }
            var i = lo
            while i < hashes.count, !part.isPast(hashes[i]) {
                entries.append(Entry(hash: hashes[i], run: ProjectedRun(block: Int32(c), session: Int32(i))))
                i += 1
            }
        }
        // By hash, then commit: integers only. Runs of sessions whose ids
        // share a hash (rare) are then put in id order, each session's in commit order.
        entries.sort { a, b in a.hash != b.hash ? a.hash < b.hash : a.run.block < b.run.block }
        func sameID(_ a: ProjectedRun, _ b: ProjectedRun) -> Bool {
            blocks[Int(a.block)].withSessionID(Int(a.session)) { x in
                blocks[Int(b.block)].withSessionID(Int(b.session)) { y in x.elementsEqual(y) }
            }
        }
        var start = 0
        while start < entries.count {
            var end = start + 1
            while end < entries.count, entries[end].hash == entries[start].hash { end += 1 }
            if end - start > 1, entries[(start + 1)..<end].contains(where: { !sameID($0.run, entries[start].run) }) {
                func id(_ e: Entry) -> ArraySlice<UInt8> { blocks[Int(e.run.block)].sessionID(Int(e.run.session)) }
                entries[start..<end].sort { a, b in
                    let ia = id(a), ib = id(b)
                    return ia != ib ? ia.lexicographicallyPrecedes(ib) : a.run.block < b.run.block
                }
            }
            start = end
        }
        let runs = entries.map(\.run)
        start = 0
        while start < runs.count {
            var end = start + 1
            while end < runs.count, entries[end].hash == entries[start].hash, sameID(runs[end], runs[start]) { end += 1 }
            body(ProjectedSession(projection: projection, runs: runs[start..<end]))
            start = end
        }
    }
}
