/// A checkpoint (`NLCP`): the full projected state after a block, so a
/// reader can start folding there (schemas/navlog-format.md, "Checkpoint
/// record"). The state JSON is stored as an embedded LZ4 frame (content
/// checksum on) inside the skippable frame.
public struct CheckpointRecord: Hashable, Sendable {
    /// The block after which the state holds.
    public var blockIndex: Int
    /// The seq of that block's last event: the state is "after seq".
    public var seq: Int
    /// The state chain h_k after that block (equal to the block entry's).
    public var stateHash: UInt64
    /// Decompressed bytes of the state JSON.
    public var jsonBytes: Int

    public init(blockIndex: Int, seq: Int, stateHash: UInt64, jsonBytes: Int) {
        self.blockIndex = blockIndex
        self.seq = seq
        self.stateHash = stateHash
        self.jsonBytes = jsonBytes
    }

    /// Appends the whole skippable frame around an already compressed JSON frame.
    func appendFrame(compressedJSON: UnsafeRawBufferPointer, to out: inout [UInt8]) {
        var body: [UInt8] = []
        body.reserveCapacity(NavLogFormat.checkpointFixedBytes + compressedJSON.count)
        body.appendLE(UInt32(truncatingIfNeeded: blockIndex))
        body.appendLE(UInt64(seq))
        body.appendLE(stateHash)
        body.appendLE(UInt32(truncatingIfNeeded: jsonBytes))
        body.appendLE(UInt32(0))               // encoding: 0 = LZ4 frame of UTF-8 JSON
        body.append(contentsOf: compressedJSON)
        SkippableFrame.appendRecord(tag: .checkpoint, body: body, to: &out)
    }

    /// The most bytes a checkpoint's payload (its skippable frame after the
    /// 8-byte frame header) may hold: the fixed part, a compressed state of
    /// at most ``NavLogFormat/maxCheckpointBytes``, the record's checksum.
    /// Readers and the walker refuse a larger one before reading it.
    static let maxPayloadBytes = NavLogFormat.checkpointFixedBytes + NavLogFormat.maxCheckpointBytes + 4

    /// Decodes the fixed part of a checked payload; the embedded LZ4 frame is
    /// `payload[checkpointFixedBytes ..< count - 4]`.
    init?(payload p: UnsafeRawBufferPointer) {
        guard p.count > NavLogFormat.checkpointFixedBytes + 4 else { return nil }
        let seq = p.loadLE64(8)
        guard seq <= UInt64(Int.max), p.loadLE32(28) == 0 else { return nil }
        blockIndex = Int(p.loadLE32(4))
        self.seq = Int(seq)
        stateHash = p.loadLE64(16)
        jsonBytes = Int(p.loadLE32(24))
        guard jsonBytes <= NavLogFormat.maxCheckpointBytes else { return nil }
    }
}

/// Where a checkpoint is: what the footer and the walk record of each one.
extension CheckpointRecord {
    /// Why this checkpoint does not belong to the block whose entry is
    /// `last` (it must name that block, its last seq and its chain hash), if it does not.
    func mismatch(after last: BlockEntry) -> CheckpointFault? {
        guard blockIndex != last.blockIndex || seq != last.lastSeq || stateHash != last.stateHash else { return nil }
        return .mismatch(block: blockIndex, seq: seq, lastBlock: last.blockIndex, lastSeq: last.lastSeq)
    }
}

public struct CheckpointRef: Hashable, Sendable {
    /// Byte offset of the checkpoint's skippable frame.
    public var offset: Int64
    /// Length of the whole frame (8-byte header included).
    public var frameLength: Int
    /// The seq the state is after.
    public var seq: Int
    /// The block after which the state holds.
    public var blockIndex: Int
    /// Index of the frame among all frames of the file.
    public var frameIndex: Int

    public init(offset: Int64, frameLength: Int, seq: Int, blockIndex: Int, frameIndex: Int) {
        self.offset = offset
        self.frameLength = frameLength
        self.seq = seq
        self.blockIndex = blockIndex
        self.frameIndex = frameIndex
    }
}
