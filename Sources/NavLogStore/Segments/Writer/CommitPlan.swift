/// One commit as the writer gathered it (``CommitBuilder``): which lines of
/// the writer's arena go into which data frame, in order, and the
/// checkpoints — everything but the compression, which ``encode(base:backLink:encoder:arena:)``
/// does on the commit's thread (schemas/segment-store.md §4, §5).
struct CommitPlan {
    /// One line of the arena.
    struct Line {
        var start: Int
        var length: Int
    }

    /// One data frame: its first line in ``lines``, the session hash of that
    /// line, whether the previous frame's last line is of the same session.
    struct Block {
        var lines: Int
        var firstHash: UInt64
        var continues: Bool
        var eventCount = 0
    }

    let number: UInt64
    var lines: [Line] = []
    var blocks: [Block] = []
    var checkpoints: [SessionCheckpoint] = []
    /// The hash of every session in the commit (its Bloom filter's members).
    var sessionHashes: [UInt64] = []
    /// Where each session's lines end in ``lines`` (its run), in session order.
    var runEnds: [Int] = []
    var minT = Int64.max, maxT = Int64.min

    init(number: UInt64) {
        self.number = number
    }

    /// The commit's bytes when it starts at `base` of its segment — its data
    /// frames, its checkpoints, its index last (carrying `backLink`, §5.3) —
    /// the index, and where the index frame is. `arena` holds the lines.
    func encode(base: Int64, backLink: Int, encoder: LZ4FrameEncoder, arena: ByteBuffer)
        throws(SegmentStoreError) -> (ByteBuffer, CommitIndex, CommitIndexLocation) {
        let out = ByteBuffer(capacity: 4 << 20)
        let raw = ByteBuffer(capacity: 64 << 10)
        var indexBlocks: [CommitIndex.Block] = []
        indexBlocks.reserveCapacity(blocks.count)
        for (number, block) in blocks.enumerated() {
            let end = number + 1 < blocks.count ? blocks[number + 1].lines : lines.count
            raw.removeAll()
            for line in lines[block.lines..<end] {
                raw.appendLine(UnsafeRawBufferPointer(start: arena.base + line.start, count: line.length))
            }
            let start = out.count
            do { try encoder.compressFrame(raw.bytes, into: out) } catch { throw .compression(error) }
            let checksum = UnsafeRawBufferPointer(start: out.base + out.count - 4, count: 4).loadLE32(0)
            indexBlocks.append(CommitIndex.Block(offset: base + Int64(start), length: out.count - start, rawSize: raw.count,
                                                 eventCount: block.eventCount, contentChecksum: checksum,
                                                 firstHash: block.firstHash, continues: block.continues))
        }
        var refs: [CommitIndex.Checkpoint] = []
        for checkpoint in checkpoints {
            let bytes: [UInt8]
            do { bytes = try checkpoint.frame(encoder: encoder) } catch { throw .compression(error) }
            refs.append(CommitIndex.Checkpoint(sessionHash: checkpoint.key.hash, position: checkpoint.position,
                                               offset: base + Int64(out.count), length: bytes.count))
            out.append(bytes)
        }
        var filter = BloomFilter(sessions: sessionHashes.count)
        for hash in sessionHashes { filter.insert(hash) }
        let index = CommitIndex(number: number, firstBlockOffset: indexBlocks.first?.offset ?? base, blocks: indexBlocks,
                                checkpoints: refs, sessionCount: sessionHashes.count, eventCount: lines.count,
                                minT: minT == .max ? 0 : minT, maxT: maxT == .min ? 0 : maxT, bloom: filter, backLink: backLink)
        let offset = base + Int64(out.count)
        var record: [UInt8] = []
        SkippableFrame.appendRecord(.commitIndex, body: index.body(), to: &record)
        out.append(record)
        return (out, index, CommitIndexLocation(offset: offset, length: record.count))
    }
}
