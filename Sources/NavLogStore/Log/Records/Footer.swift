/// The footer (`NLFT`) and trailer (`NLTR`) a writer appends on close, so that
/// opening a closed file costs two reads instead of a walk
/// (schemas/navlog-format.md, "Footer record", "Trailer record").
struct Footer: Hashable, Sendable {
    var entries: [BlockEntry]
    var checkpoints: [CheckpointRef]
    /// Total events in the blocks.
    var eventCount: Int
    /// Byte offset of the footer frame itself (= end of the body).
    var footerOffset: Int64
    /// Frame index of the footer frame (= number of frames before it).
    var frameIndex: Int

    /// Appends the footer frame and the trailer frame.
    func appendFrames(to out: inout [UInt8]) {
        var body: [UInt8] = []
        body.reserveCapacity(NavLogFormat.footerFixedBytes + entries.count * NavLogFormat.blockEntryPayloadBytes
                             + checkpoints.count * NavLogFormat.checkpointRefBytes)
        body.appendLE(UInt32(truncatingIfNeeded: frameIndex))
        body.appendLE(UInt64(entries.count))
        body.appendLE(UInt64(checkpoints.count))
        body.appendLE(UInt64(eventCount))
        body.appendLE(UInt64(footerOffset))
        for entry in entries { entry.appendPayload(to: &body) }
        for ref in checkpoints {
            body.appendLE(UInt64(ref.offset))
            body.appendLE(UInt64(ref.seq))
            body.appendLE(UInt32(truncatingIfNeeded: ref.frameLength))
            body.appendLE(UInt32(truncatingIfNeeded: ref.blockIndex))
            body.appendLE(UInt32(truncatingIfNeeded: ref.frameIndex))
            body.appendLE(UInt32(0))
        }
        SkippableFrame.appendRecord(tag: .footer, body: body, to: &out)
        var trailer: [UInt8] = []
        trailer.appendLE(UInt64(footerOffset))
        SkippableFrame.appendRecord(tag: .trailer, body: trailer, to: &out)
    }

    /// The byte size of the footer frame for a given index (without the trailer).
    static func frameBytes(blocks: Int, checkpoints: Int) -> Int {
        8 + NavLogFormat.footerFixedBytes + blocks * NavLogFormat.blockEntryPayloadBytes
            + checkpoints * NavLogFormat.checkpointRefBytes + 4
    }

    /// Decodes a checked footer payload; `nil` when its counts do not add up
    /// to its size or an entry does not decode.
    init?(payload p: UnsafeRawBufferPointer) {
        guard p.count >= NavLogFormat.footerFixedBytes + 4 else { return nil }
        let blocks = p.loadLE64(8), cps = p.loadLE64(16), events = p.loadLE64(24), offset = p.loadLE64(32)
        let room = UInt64(p.count - NavLogFormat.footerFixedBytes - 4)
        guard blocks <= room / UInt64(NavLogFormat.blockEntryPayloadBytes),
              cps <= room / UInt64(NavLogFormat.checkpointRefBytes),
              blocks * UInt64(NavLogFormat.blockEntryPayloadBytes) + cps * UInt64(NavLogFormat.checkpointRefBytes) == room,
              events <= UInt64(Int.max), offset <= UInt64(Int64.max)
        else { return nil }
        var entries: [BlockEntry] = []
        entries.reserveCapacity(Int(blocks))
        var at = NavLogFormat.footerFixedBytes
        for _ in 0..<Int(blocks) {
            // The footer's checksum covers the entries; each keeps its own
            // checksum too (verify compares them with the walk), not rechecked here.
            let slice = UnsafeRawBufferPointer(rebasing: p[at..<(at + NavLogFormat.blockEntryPayloadBytes)])
            guard slice.loadLE32(0) == NavLogFormat.Tag.block.rawValue,
                  let entry = BlockEntry(payload: slice) else { return nil }
            entries.append(entry)
            at += NavLogFormat.blockEntryPayloadBytes
        }
        var refs: [CheckpointRef] = []
        refs.reserveCapacity(Int(cps))
        for _ in 0..<Int(cps) {
            let off = p.loadLE64(at), seq = p.loadLE64(at + 8)
            guard off <= UInt64(Int64.max), seq <= UInt64(Int.max) else { return nil }
            refs.append(CheckpointRef(offset: Int64(off), frameLength: Int(p.loadLE32(at + 16)), seq: Int(seq),
                                      blockIndex: Int(p.loadLE32(at + 20)), frameIndex: Int(p.loadLE32(at + 24))))
            at += NavLogFormat.checkpointRefBytes
        }
        self.entries = entries
        self.checkpoints = refs
        self.eventCount = Int(events)
        self.footerOffset = Int64(offset)
        self.frameIndex = Int(p.loadLE32(4))
    }

    init(entries: [BlockEntry], checkpoints: [CheckpointRef], eventCount: Int, footerOffset: Int64, frameIndex: Int) {
        self.entries = entries
        self.checkpoints = checkpoints
        self.eventCount = eventCount
        self.footerOffset = footerOffset
        self.frameIndex = frameIndex
    }
}
