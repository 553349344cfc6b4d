/// A batch of one session's stored lines read back for the writer's
/// duplicate checks: every stored line from a seq on, in seq order, up to
/// ``batchBytes``. A cache, so that a re-sent session is read back once per
/// batch rather than once per event; the writer drops it when all sessions'
/// batches pass its budget.
final class StoredLines {
    /// The lines, by seq.
    private let lines: [(seq: Int, line: [UInt8])]
    /// The seqs the batch answers for (a seq inside without a line is not stored).
    private let seqs: ClosedRange<Int>?
    /// The bytes of the lines.
    let bytes: Int

    /// The most bytes of stored lines one batch keeps.
    static let batchBytes = 256 << 10

    /// Reads back the stored lines of session `key` from `seq` on.
    init(of key: SessionKey, from seq: Int, in catalog: SegmentCatalog) throws(SegmentStoreError) {
        var lines: [(seq: Int, line: [UInt8])] = []
        var bytes = 0
        try catalog.forEachLine(of: key) { line, _ in
            guard let lineSeq = catalog.readFold.key(line)?.seq else { return true }
            guard lineSeq >= seq else { return true }
            lines.append((lineSeq, Array(line)))
            bytes += line.count
            return bytes < Self.batchBytes
        }
        self.lines = lines
        self.bytes = bytes
        seqs = lines.last.map { seq...$0.seq }
    }

    /// A batch of lines already read back: every stored line of the session from `seq` on.
    init(from seq: Int, lines: [(seq: Int, line: [UInt8])], bytes: Int) {
        self.lines = lines
        self.bytes = bytes
        seqs = lines.last.map { seq...$0.seq }
    }

    /// Whether the batch answers for `seq`.
    func covers(_ seq: Int) -> Bool { seqs?.contains(seq) == true }

    /// The stored line at `seq`, or `nil` when none is (or the batch does not cover it).
    func line(seq: Int) -> [UInt8]? {
        guard covers(seq) else { return nil }
        var lo = 0, hi = lines.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if lines[mid].seq < seq { lo = mid + 1 } else { hi = mid }
        }
        return lo < lines.count && lines[lo].seq == seq ? lines[lo].line : nil
    }
}
