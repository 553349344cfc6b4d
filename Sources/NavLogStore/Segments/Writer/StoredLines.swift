/// A batch of one session's stored lines read back for the writer's
/// duplicate checks: every stored line from a seq on, in seq order, up to
/// ``batchBytes``, back to back in one buffer. A cache, so that a re-sent
/// session is read back once per batch rather than once per event; the
/// writer drops it when all sessions' batches pass its budget.
final class StoredLines {
    /// The lines' bytes, back to back, and each line's seq and place there.
    private var storage: [UInt8] = []
    private var entries: [(seq: Int, start: Int, count: Int)] = []
    /// The seqs the batch answers for (a seq inside without a line is not stored).
    private var seqs: ClosedRange<Int>?
    /// The first seq the batch answers for.
    private let from: Int

    /// The most bytes of stored lines one batch keeps.
    static let batchBytes = 256 << 10

    /// An empty batch answering from `seq` on, to be filled by ``append(seq:_:)``.
    init(from seq: Int) {
        from = seq
    }

    /// Reads back the stored lines of session `key` from `seq` on.
    convenience init(of key: SessionKey, from seq: Int, in catalog: SegmentCatalog) throws(SegmentStoreError) {
        self.init(from: seq)
        try catalog.forEachLine(of: key) { line, _ in
            guard let lineSeq = catalog.readFold.seq(line) else { return true }
            guard lineSeq >= seq else { return true }
            append(seq: lineSeq, line)
            return !isFull
        }
    }

    /// Adds the next stored line (seqs in increasing order).
    func append(seq: Int, _ line: UnsafeRawBufferPointer) {
        entries.append((seq, storage.count, line.count))
        storage.append(contentsOf: line)
        seqs = from...seq
    }

    /// The bytes of the lines.
    var bytes: Int { storage.count }

    /// Whether the batch holds ``batchBytes`` or more.
    var isFull: Bool { storage.count >= Self.batchBytes }

    /// Whether the batch answers for `seq`.
    func covers(_ seq: Int) -> Bool { seqs?.contains(seq) == true }

    /// The stored line at `seq`, or `nil` when none is (or the batch does not cover it).
    func line(seq: Int) -> ArraySlice<UInt8>? {
        guard covers(seq) else { return nil }
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if entries[mid].seq < seq { lo = mid + 1 } else { hi = mid }
        }
        guard lo < entries.count, entries[lo].seq == seq else { return nil }
        return storage[entries[lo].start..<(entries[lo].start + entries[lo].count)]
    }
}
