import NavLogCore

/// Reads one ``SegmentStorePart`` session by session: within a commit a
/// session's lines are one run in session-key order (schemas/segment-store.md
/// §4), so the commits' runs are merged by session key, each session's runs
/// in commit order (its seq order). Memory: one decompressed block per
/// commit, and nothing per session.
final class SegmentPartScan {
    /// Where one commit is read.
    private struct Cursor {
        let ref: SegmentCatalog.CommitRef
        var block: Int
        var bytes: [UInt8] = []
        /// The current line: `bytes[start..<end]`.
        var start = 0
        var end = 0
        /// The current line's session; `nil` when the commit has no more lines for the part.
        var key: SessionKey?
    }

    private let part: SegmentStorePart
    private let catalog: SegmentCatalog
    private var cursors: [Cursor] = []
    /// Cursors with a line, as a min-heap by (key, commit).
    private var heap: [Int] = []
    private var fold = SessionFold()
    /// The commit (index into the store's commits) of the line handed out last.
    private(set) var lineCommit = 0
    /// The segment and block of the line handed out last (for a message).
    private var place: (segment: String, offset: Int64) = ("", 0)

    /// Opens the store and positions a cursor in each of its first `part.commits` commits.
    init(_ part: SegmentStorePart) throws(SessionStreamError) {
        self.part = part
        do { catalog = try SegmentCatalog(store: SegmentStore.open(at: part.store)) } catch { throw .store(error) }
        guard catalog.commits.count >= part.commits else {
            throw .store(.corrupt(segment: part.store, offset: 0, reason: "\(catalog.commits.count) commits, \(part.commits) seen before"))
        }
        for ref in catalog.commits.prefix(part.commits) {
            let blocks = catalog.index(ref).blocks
            var lo = 0, hi = blocks.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if blocks[mid].firstHash < part.lowestHash { lo = mid + 1 } else { hi = mid }
            }
            cursors.append(Cursor(ref: ref, block: max(0, lo - 1)))
            let c = cursors.count - 1
            guard try load(c) else { continue }
            try settle(c)
            while let key = cursors[c].key, key.hash < part.lowestHash {
                guard try next(c) else { break }
                try settle(c)
            }
            if let key = cursors[c].key, part.isPast(key.hash) { cursors[c].key = nil }
            if cursors[c].key != nil { push(c) }
        }
    }

    /// Calls `body` with every line of the part, session after session in
    /// session-key order, each session's lines in seq order; `startsSession`
    /// is `true` for a session's first line.
    func forEachLine(_ body: (_ line: UnsafeRawBufferPointer, _ startsSession: Bool) throws(SessionStreamError) -> Void)
        throws(SessionStreamError) {
        while let first = heap.first, let key = cursors[first].key {
            var starts = true
            while let c = heap.first, cursors[c].key == key {
                pop()
                while true {
                    place = (catalog.segments[cursors[c].ref.segment].file.path, catalog.index(cursors[c].ref).blocks[cursors[c].block].offset)
                    lineCommit = c
                    let range = cursors[c].start..<cursors[c].end, first = starts
                    try cursors[c].bytes.withUnsafeBytes { raw in
                        Result { () throws(SessionStreamError) in try body(UnsafeRawBufferPointer(rebasing: raw[range]), first) }
                    }.get()
                    starts = false
                    guard try next(c) else { break }
                    let same = cursors[c].bytes.withUnsafeBytes { raw in
                        SegmentCatalog.isLine(UnsafeRawBufferPointer(rebasing: raw[cursors[c].start..<cursors[c].end]), of: key, &fold)
                    }
                    if same { continue }
                    try settle(c)
                    if let next = cursors[c].key, !part.isPast(next.hash) { push(c) }
                    break
                }
            }
        }
    }

    /// ``forEachLine(_:)`` with each line read as an event; a line that is
    /// not one is damage, reported with its segment and block. Without
    /// `keepingRestoredJSON`, a `state.restore` event has its scene alone
    /// (for a reader that only follows it, ``EventLineParser/init(keepingObjects:keepingRestoredJSON:)``).
    func forEachEvent(keepingRestoredJSON: Bool = true,
                      _ body: (Event, _ startsSession: Bool) throws(SessionStreamError) -> Void) throws(SessionStreamError) {
        var parser = EventLineParser(keepingObjects: true, keepingRestoredJSON: keepingRestoredJSON)
        try forEachLine { (line, starts) throws(SessionStreamError) in
            let event: Event
            do { event = try parser.parse(line) } catch { throw corrupt("a line of the block is not an event: \(error)") }
            try body(event, starts)
        }
    }

    /// Damage at the block of the line handed out last.
    func corrupt(_ why: String) -> SessionStreamError {
        .store(.corrupt(segment: place.segment, offset: place.offset, reason: why))
    }

    // MARK: Cursors

    /// Decompresses cursor `c`'s block into its buffer and points at its first line; `false` when empty.
    private func load(_ c: Int) throws(SessionStreamError) -> Bool {
        let content: UnsafeRawBufferPointer
        do { content = try catalog.blockContent(cursors[c].ref, block: cursors[c].block) } catch { throw .store(error) }
        cursors[c].bytes.removeAll(keepingCapacity: true)
        cursors[c].bytes.append(contentsOf: content)
        cursors[c].start = 0
        cursors[c].end = cursors[c].bytes.withUnsafeBytes { lineEnd(in: $0, from: 0) }
        if cursors[c].bytes.isEmpty { cursors[c].key = nil }
        return !cursors[c].bytes.isEmpty
    }

    /// Moves cursor `c` to its next line, across blocks; `false` (and no key) at the commit's end.
    private func next(_ c: Int) throws(SessionStreamError) -> Bool {
        let start = cursors[c].end + 1
        if start < cursors[c].bytes.count {
            cursors[c].start = start
            cursors[c].end = cursors[c].bytes.withUnsafeBytes { lineEnd(in: $0, from: start) }
            return true
        }
        while cursors[c].block + 1 < catalog.index(cursors[c].ref).blocks.count {
            cursors[c].block += 1
            if try load(c) { return true }
        }
        cursors[c].key = nil
        return false
    }

    /// Sets cursor `c`'s key from its current line.
    private func settle(_ c: Int) throws(SessionStreamError) {
        let key: SessionKey? = cursors[c].bytes.withUnsafeBytes { raw in
            let line = UnsafeRawBufferPointer(rebasing: raw[cursors[c].start..<cursors[c].end])
            if let range = SessionSkim.sessionBytes(in: line) { return SessionKey(id: Array(line[range])) }
            return fold.facts(line).map { SessionKey($0.session) }
        }
        guard let key else {
            place = (catalog.segments[cursors[c].ref.segment].file.path, catalog.index(cursors[c].ref).blocks[cursors[c].block].offset)
            throw corrupt("a line of the block is not a canonical event")
        }
        cursors[c].key = key
    }

    // MARK: The heap

    private func less(_ a: Int, _ b: Int) -> Bool {
        guard let ka = cursors[a].key, let kb = cursors[b].key else { return cursors[a].key != nil }
        return ka < kb || (ka == kb && a < b)
    }

    private func push(_ c: Int) {
        heap.append(c)
        var i = heap.count - 1
        while i > 0, less(heap[i], heap[(i - 1) / 2]) {
            heap.swapAt(i, (i - 1) / 2)
            i = (i - 1) / 2
        }
    }

    private func pop() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < heap.count, less(heap[l], heap[m]) { m = l }
            if r < heap.count, less(heap[r], heap[m]) { m = r }
            if m == i { return }
            heap.swapAt(i, m)
            i = m
        }
    }
}
