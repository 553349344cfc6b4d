// Log/Records/: The single-session `.navlog` log's records (schemas/navlog-format.md): preamble, header, block entries, checkpoints, footer, the state chain, and the log's words for damage (`LogFault`).

/// One block's index entry (`NLBK`): where its data frame is, which events it
/// holds, and the state chain after it (schemas/navlog-format.md, "Block
/// entry"). Written right after the block's data frame, and again in the
/// footer; a block exists only once its entry is complete.
public struct BlockEntry: Hashable, Sendable {
    /// Position of the block in the file, from 0.
    public var blockIndex: Int
    /// Byte offset of the block's data frame.
    public var dataOffset: Int64
    /// Length of the data frame in bytes.
    public var dataLength: Int
    /// Decompressed bytes (the canonical lines, each ending in `\n`).
    public var contentSize: Int
    /// Events (lines) in the block.
    public var eventCount: Int
    /// XXH32 of the content: the data frame's own content checksum.
    public var contentChecksum: UInt32
    /// Seq of the first and last event.
    public var firstSeq: Int
    public var lastSeq: Int
    /// `t` of the first and last event (ms since the epoch).
    public var firstT: Int64
    public var lastT: Int64
    /// Smallest and largest `t` in the block.
    public var minT: Int64
    public var maxT: Int64
    /// Largest `t` of every event up to and including this block.
    public var runningMaxT: Int64
    /// The state chain h_k after this block.
    public var stateHash: UInt64
    /// Whether `t` never decreased from the file's first event to this block's last.
    public var timeOrdered: Bool
    /// Index of the data frame among all frames of the file, from 0.
    public var dataFrameIndex: Int

    public init(
        blockIndex: Int, dataOffset: Int64, dataLength: Int, contentSize: Int, eventCount: Int,
        contentChecksum: UInt32, firstSeq: Int, lastSeq: Int, firstT: Int64, lastT: Int64,
        minT: Int64, maxT: Int64, runningMaxT: Int64, stateHash: UInt64, timeOrdered: Bool,
        dataFrameIndex: Int
    ) {
        self.blockIndex = blockIndex
        self.dataOffset = dataOffset
        self.dataLength = dataLength
        self.contentSize = contentSize
        self.eventCount = eventCount
        self.contentChecksum = contentChecksum
        self.firstSeq = firstSeq
        self.lastSeq = lastSeq
        self.firstT = firstT
        self.lastT = lastT
        self.minT = minT
        self.maxT = maxT
        self.runningMaxT = runningMaxT
        self.stateHash = stateHash
        self.timeOrdered = timeOrdered
        self.dataFrameIndex = dataFrameIndex
    }

    /// Byte offset just past the data frame (where the entry frame starts).
    public var dataEnd: Int64 { dataOffset + Int64(dataLength) }

    /// Every field by which this entry fails to describe the data frame
    /// before it (block `index` of the file, frame number `frame`), in field
    /// order: a reader words the first, the verifier all. A frame without a
    /// content checksum (`checksum` nil) disagrees.
    func disagreements(offset: Int64, length: Int, index: Int, frame: Int, checksum: UInt32?) -> [EntryDisagreement] {
        var wrong: [EntryDisagreement] = []
        if dataOffset != offset { wrong.append(.dataOffset(entry: dataOffset, frame: offset)) }
        if dataLength != length { wrong.append(.dataLength(entry: dataLength, frame: length)) }
        if blockIndex != index { wrong.append(.blockIndex(entry: blockIndex, expected: index)) }
        if dataFrameIndex != frame { wrong.append(.frameIndex(entry: dataFrameIndex, expected: frame)) }
        guard let checksum else { return wrong + [.noContentChecksum] }
        if contentChecksum != checksum { wrong.append(.contentChecksum(entry: contentChecksum, frame: checksum)) }
        return wrong
    }

    /// Appends the record's payload (tag … checksum), exactly
    /// ``NavLogFormat/blockEntryPayloadBytes`` bytes.
    func appendPayload(to out: inout [UInt8]) {
        let start = out.count
        out.appendLE(NavLogFormat.Tag.block.rawValue)
        out.appendLE(UInt32(truncatingIfNeeded: blockIndex))
        out.appendLE(UInt64(dataOffset))
        out.appendLE(UInt32(truncatingIfNeeded: dataLength))
        out.appendLE(UInt32(truncatingIfNeeded: contentSize))
        out.appendLE(UInt32(truncatingIfNeeded: eventCount))
        out.appendLE(contentChecksum)
        out.appendLE(UInt64(firstSeq))
        out.appendLE(UInt64(lastSeq))
        out.appendLE(firstT)
        out.appendLE(lastT)
        out.appendLE(minT)
        out.appendLE(maxT)
        out.appendLE(runningMaxT)
        out.appendLE(stateHash)
        out.appendLE(UInt32(timeOrdered ? 1 : 0))
        out.appendLE(UInt32(truncatingIfNeeded: dataFrameIndex))
        out.appendLE(UInt32(0))
        out.appendLE(XXHash32.hash(out, range: start..<out.count))
    }

    /// Appends the whole skippable frame.
    func appendFrame(to out: inout [UInt8]) {
        out.appendLE(NavLogFormat.navlogSkippableMagic)
        out.appendLE(UInt32(NavLogFormat.blockEntryPayloadBytes))
        appendPayload(to: &out)
    }

    /// Decodes a checked payload (tag and checksum already verified); `nil`
    /// when a field is out of range.
    init?(payload p: UnsafeRawBufferPointer) {
        guard p.count == NavLogFormat.blockEntryPayloadBytes else { return nil }
        let firstSeq = p.loadLE64(32), lastSeq = p.loadLE64(40), dataOffset = p.loadLE64(8)
        guard firstSeq >= 1, firstSeq <= lastSeq, lastSeq <= UInt64(Int.max),
              dataOffset <= UInt64(Int64.max) else { return nil }
        blockIndex = Int(p.loadLE32(4))
        self.dataOffset = Int64(dataOffset)
        dataLength = Int(p.loadLE32(16))
        contentSize = Int(p.loadLE32(20))
        eventCount = Int(p.loadLE32(24))
        contentChecksum = p.loadLE32(28)
        self.firstSeq = Int(firstSeq)
        self.lastSeq = Int(lastSeq)
        firstT = Int64(bitPattern: p.loadLE64(48))
        lastT = Int64(bitPattern: p.loadLE64(56))
        minT = Int64(bitPattern: p.loadLE64(64))
        maxT = Int64(bitPattern: p.loadLE64(72))
        runningMaxT = Int64(bitPattern: p.loadLE64(80))
        stateHash = p.loadLE64(88)
        timeOrdered = p.loadLE32(96) & 1 != 0
        dataFrameIndex = Int(p.loadLE32(100))
        guard eventCount >= 1, eventCount <= self.lastSeq - self.firstSeq + 1,
              eventCount > 1 || self.firstSeq == self.lastSeq,
              minT <= maxT, contentSize >= eventCount, dataLength >= 7 else { return nil }
    }
}
