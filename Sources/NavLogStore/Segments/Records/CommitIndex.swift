/// A commit index (`NLCI`, schemas/segment-store.md §5.3): the end of every
/// commit, and what makes it visible. Everything a reader needs to find a
/// session's runs and checkpoints in the commit without decompressing it.
struct CommitIndex: Hashable, Sendable {
    /// One data frame of the commit.
    struct Block: Hashable, Sendable {
        var offset: Int64
        var length: Int
        var rawSize: Int
        var eventCount: Int
        var contentChecksum: UInt32
        /// The session hash of the block's first line.
        var firstHash: UInt64
        /// Whether the previous block's last line has that same session hash.
        var continues: Bool
    }

    /// One `NLSC` record of the commit.
    struct Checkpoint: Hashable, Sendable {
        var sessionHash: UInt64
        var position: Int
        var offset: Int64
        var length: Int
    }

    var number: UInt64
    var firstBlockOffset: Int64
    var blocks: [Block]
    var checkpoints: [Checkpoint]
    var sessionCount: Int
    var eventCount: Int
    var minT: Int64
    var maxT: Int64
    var bloom: BloomFilter
    /// The whole length of the previous commit's index frame in the segment
    /// (it ends at ``firstBlockOffset``); 0 in a segment's first commit and
    /// in stores written before back-links (§5.3).
    var backLink = 0

    /// The record's body (between tag and checksum).
    func body() -> [UInt8] {
        var b: [UInt8] = []
        b.reserveCapacity(64 + 40 * blocks.count + 32 * checkpoints.count + 8 * bloom.words.count)
        b.appendLE(number)
        b.appendLE(UInt64(firstBlockOffset))
        b.appendLE(UInt32(blocks.count))
        b.appendLE(UInt32(checkpoints.count))
        b.appendLE(UInt32(truncatingIfNeeded: sessionCount))
        b.appendLE(UInt64(eventCount))
        b.appendLE(minT)
        b.appendLE(maxT)
        b.appendLE(UInt32(bloom.words.count))
        b.appendLE(UInt32(bloom.probes))
        for (i, block) in blocks.enumerated() {
            b.appendLE(UInt64(block.offset))
            b.appendLE(UInt32(block.length))
            b.appendLE(UInt32(block.rawSize))
            b.appendLE(UInt32(block.eventCount))
            b.appendLE(block.contentChecksum)
            b.appendLE(block.firstHash)
            b.append(block.continues ? 1 : 0)
            b.append(contentsOf: [0, 0, 0])
            b.appendLE(UInt32(truncatingIfNeeded: i == 0 ? backLink : 0))
        }
        for ref in checkpoints {
            b.appendLE(ref.sessionHash)
            b.appendLE(UInt64(ref.position))
            b.appendLE(UInt64(ref.offset))
            b.appendLE(UInt32(ref.length))
            b.appendLE(UInt32(0))
        }
        for word in bloom.words { b.appendLE(word) }
        return b
    }

    /// Decodes a payload whose tag and checksum were checked; the reason when
    /// its sizes do not add up.
    static func decode(payload p: UnsafeRawBufferPointer) -> Result<CommitIndex, CommitIndexProblem> {
        guard p.count >= SegmentFormat.commitFixedBytes + 4 else { return .failure(.tooShort(p.count)) }
        let blockCount = Int(p.loadLE32(20)), checkpointCount = Int(p.loadLE32(24))
        let words = Int(p.loadLE32(56)), probes = Int(p.loadLE32(60))
        let expected = SegmentFormat.commitFixedBytes + SegmentFormat.blockRefBytes * blockCount
            + SegmentFormat.checkpointRefBytes * checkpointCount + 8 * words + 4
        guard expected == p.count else { return .failure(.sizes(expected: expected, actual: p.count)) }
        guard blockCount >= 1, words >= 1, (1...32).contains(probes) else {
            return .failure(.fields(blocks: blockCount, words: words, probes: probes))
        }
        var at = SegmentFormat.commitFixedBytes
        var blocks: [Block] = []
        blocks.reserveCapacity(blockCount)
        for _ in 0..<blockCount {
            blocks.append(Block(offset: Int64(bitPattern: p.loadLE64(at)), length: Int(p.loadLE32(at + 8)),
                                rawSize: Int(p.loadLE32(at + 12)), eventCount: Int(p.loadLE32(at + 16)),
                                contentChecksum: p.loadLE32(at + 20), firstHash: p.loadLE64(at + 24),
                                continues: p[at + 32] & 1 != 0))
            at += SegmentFormat.blockRefBytes
        }
        var checkpoints: [Checkpoint] = []
        checkpoints.reserveCapacity(checkpointCount)
        for _ in 0..<checkpointCount {
            checkpoints.append(Checkpoint(sessionHash: p.loadLE64(at), position: Int(clamping: p.loadLE64(at + 8)),
                                          offset: Int64(bitPattern: p.loadLE64(at + 16)), length: Int(p.loadLE32(at + 24))))
            at += SegmentFormat.checkpointRefBytes
        }
        var bloomWords: [UInt64] = []
        bloomWords.reserveCapacity(words)
        for _ in 0..<words {
            bloomWords.append(p.loadLE64(at))
            at += 8
        }
        return .success(CommitIndex(
            number: p.loadLE64(4), firstBlockOffset: Int64(bitPattern: p.loadLE64(12)), blocks: blocks,
            checkpoints: checkpoints, sessionCount: Int(p.loadLE32(28)), eventCount: Int(clamping: p.loadLE64(32)),
            minT: Int64(bitPattern: p.loadLE64(40)), maxT: Int64(bitPattern: p.loadLE64(48)),
            bloom: BloomFilter(words: bloomWords, probes: probes),
            backLink: Int(p.loadLE32(SegmentFormat.commitFixedBytes + SegmentFormat.backLinkInBlockRef))))
    }

    /// Whether the commit's frames lie end to end from its first block to
    /// `indexOffset` (where its index frame starts): its blocks, then its
    /// checkpoints, as the writer lays them out (§4).
    func tiles(upTo indexOffset: Int64) -> Bool {
        var at = firstBlockOffset
        for (offset, length) in blocks.map({ ($0.offset, $0.length) }) + checkpoints.map({ ($0.offset, $0.length) }) {
            guard offset == at, length > 0 else { return false }
            at += Int64(length)
        }
        return at == indexOffset
    }

    /// Reads the commit index frame at `location` through `window`: `nil`
    /// unless it is a whole `NLCI` record whose checksum holds and whose
    /// sizes add up (a reader then walks the segment, §9).
    static func read(_ location: CommitIndexLocation, in window: FileWindow) throws(FileError) -> CommitIndex? {
        guard location.offset >= Int64(SegmentFormat.preambleBytes), location.length > 8,
              location.length - 8 <= SegmentFormat.maxRecordBytes else { return nil }
        let record = try window.view(at: location.offset, count: location.length, readingAhead: false)
        guard record.count == location.length, record.loadLE32(0) == NavLogFormat.navlogSkippableMagic,
              Int(record.loadLE32(4)) == location.length - 8 else { return nil }
        let body = UnsafeRawBufferPointer(rebasing: record[8...])
        guard case .success(SegmentFormat.Tag.commitIndex.rawValue) = SkippableFrame.checkRecord(body),
              case .success(let index) = decode(payload: body) else { return nil }
        return index
    }

    /// The blocks that may hold lines of a session with hash `h`, in order
    /// (§5.3, "Finding a session's runs"); empty when the filter says no.
    func candidateBlocks(_ h: UInt64) -> Range<Int> {
        guard bloom.mayContain(h) else { return 0..<0 }
        // The first block whose first hash is ≥ h.
        var lo = 0, hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if blocks[mid].firstHash < h { lo = mid + 1 } else { hi = mid }
        }
        let start = (lo < blocks.count && blocks[lo].firstHash == h && !blocks[lo].continues) ? lo : max(0, lo - 1)
        var end = lo
        while end < blocks.count && blocks[end].firstHash == h { end += 1 }
        return start..<max(end, start + 1)
    }
}

/// Why a commit index's payload does not decode.
enum CommitIndexProblem: Error, Hashable, Sendable, CustomStringConvertible {
    case tooShort(Int)
    case sizes(expected: Int, actual: Int)
    case fields(blocks: Int, words: Int, probes: Int)

    var description: String {
        switch self {
        case .tooShort(let n): "commit index of \(n) bytes is shorter than its fixed part"
        case .sizes(let expected, let actual): "commit index counts add up to \(expected) bytes, the record has \(actual)"
        case .fields(let b, let w, let k): "commit index has \(b) blocks, \(w) filter words, \(k) probes"
        }
    }
}
