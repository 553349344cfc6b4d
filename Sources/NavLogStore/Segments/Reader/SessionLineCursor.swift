import NavLogCore

/// Walks one session's stored lines in a segment store block by block, from
/// the start or from just after a checkpoint (schemas/segment-store.md
/// §5.3, §7): each commit whose filter may hold the session is searched
/// through its block index, and only blocks of the session's run are
/// decompressed. Starting after seq S in commit C, the block where the run
/// passes S is found by a binary search over the run's blocks (O(log
/// blocks) decompressions), so a long session is not read from its start.
struct SessionLineCursor {
    private let catalog: SegmentCatalog
    let key: SessionKey
    /// Lines with seq ≤ this are passed over (the checkpoint's seq, or 0).
    private let afterSeq: Int
    /// The commit (an index into the catalog's commits) and its blocks still to read.
    private var commit: Int
    /// The commit of the block last read (an index into the catalog's commits).
    private(set) var commitIndex = 0
    /// Data frames this cursor decompressed.
    private(set) var blocksRead = 0
    private var blocks: Range<Int>
    private var fold = SessionFold()

    /// Starts at commit `from` (an index into the catalog's commits), after seq `afterSeq`.
    init(catalog: SegmentCatalog, key: SessionKey, fromCommit from: Int = 0, afterSeq: Int = 0) throws(SegmentStoreError) {
        self.catalog = catalog
        self.key = key
        self.afterSeq = afterSeq
        commit = from
        blocks = 0..<0
        guard from < catalog.commits.count else { return }
        blocks = catalog.index(catalog.commits[from]).candidateBlocks(key.hash)
        if afterSeq > 0 && blocks.count > 2 { try skipToSeq() }
    }

    /// Narrows ``blocks`` to start at the first block holding a line of the
    /// session with seq > ``afterSeq`` (the run's blocks are in seq order).
    private mutating func skipToSeq() throws(SegmentStoreError) {
        var low = blocks.lowerBound, high = blocks.upperBound
        while low < high {
            let mid = (low + high) / 2
            var last = 0
            _ = try lines(inBlock: mid) { _, seq in last = seq }
            if last <= afterSeq { low = mid + 1 } else { high = mid }
        }
        blocks = min(low, blocks.upperBound - 1)..<blocks.upperBound
    }

    /// Calls `body` with each line of the session in block `block` of the
    /// current commit, and its seq; returns whether the session's run ended in the block.
    private mutating func lines(inBlock block: Int,
                                _ body: (UnsafeRawBufferPointer, Int) throws(SegmentStoreError) -> Void) throws(SegmentStoreError) -> Bool {
        commitIndex = commit
        blocksRead += 1
        let bytes = try catalog.blockContent(catalog.commits[commit], block: block)
        var seen = false
        var start = 0
        while start < bytes.count {
            let end = lineEnd(in: bytes, from: start)
            let line = UnsafeRawBufferPointer(rebasing: bytes[start..<end])
            start = end + 1
            if SegmentCatalog.isLine(line, of: key, &fold) {
                seen = true
                guard let seq = fold.key(line)?.seq else { throw corrupt(block, "a stored line of session \(key.string) is not an event") }
                try body(line, seq)
            } else if seen {
                return true
            }
        }
        return false
    }

    /// Calls `body` with the session's lines of the next block that holds
    /// any (after ``afterSeq``), in seq order; `false` when the session has no more.
    mutating func nextBlock(_ body: (UnsafeRawBufferPointer) throws(SegmentStoreError) -> Void) throws(SegmentStoreError) -> Bool {
        while commit < catalog.commits.count {
            guard let block = blocks.first else {
                commit += 1
                if commit < catalog.commits.count { blocks = catalog.index(catalog.commits[commit]).candidateBlocks(key.hash) }
                continue
            }
            var any = false
            let after = afterSeq
            let runEnded = try lines(inBlock: block) { line, seq throws(SegmentStoreError) in
                guard seq > after else { return }
                any = true
                try body(line)
            }
            blocks = runEnded ? blocks.upperBound..<blocks.upperBound : blocks.dropFirst()
            if any { return true }
        }
        return false
    }

    private func corrupt(_ block: Int, _ why: String) -> SegmentStoreError {
        let ref = catalog.commits[commit]
        let entry = catalog.index(ref).blocks[block]
        return .corrupt(SegmentDamage(file: catalog.segments[ref.segment].file.path, offset: entry.offset, kind: .dataFrame(why)))
    }
}

/// A pull cursor of a session's events over ``SessionLineCursor``, one block
/// parsed at a time.
struct StoredEventCursor {
    private var lines: SessionLineCursor
    private var parser = EventLineParser()
    private var buffer: [Event] = []
    private var index = 0

    init(_ lines: SessionLineCursor) { self.lines = lines }

    /// Data frames decompressed so far.
    var blocksRead: Int { lines.blocksRead }

    /// The next event; `nil` once the session has no more.
    mutating func next() throws(SegmentStoreError) -> Event? {
        while index == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            index = 0
            var failed = false
            let more = try lines.nextBlock { line throws(SegmentStoreError) in
                if let event = try? parser.parse(line) { buffer.append(event) } else { failed = true }
            }
            if failed { throw .invalidEvent(session: lines.key.string, seq: 0, reason: "a stored line does not parse as an event") }
            if !more { return nil }
        }
        index += 1
        return buffer[index - 1]
    }
}
