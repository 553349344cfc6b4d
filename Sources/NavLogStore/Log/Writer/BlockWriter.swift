import NavLogCore

/// The file side of a ``LogWriter``: compresses sealed blocks and writes
/// them, with their entries and checkpoints, at the end of the file, and
/// keeps the index of what it wrote (schemas/navlog-format.md §6).
///
/// Used by one thread at a time: the appending thread, or — for the blocks
/// it was handed, with ``LogWriterOptions/sealsInBackground`` — the writer's
/// ``BackgroundSealer``, which owns it strongly and never sees the
/// ``LogWriter``. While the sealer has blocks, the appending thread touches
/// nothing here but reads ``frameOffset`` (which is `nil` then, and stays
/// so); it drains the sealer before anything else.
final class BlockWriter: @unchecked Sendable {
    let path: String
    let options: LogWriterOptions
    let file: OpenFile
    /// Where the next bytes go.
    @exclusivity(unchecked) private(set) var end: Int64 = 0
    private(set) var nextFrameIndex = 2
    let encoder: LZ4FrameEncoder
    /// Compressed bytes on their way to the file.
    let out: ByteBuffer
    private let checkpointScratch = ByteBuffer(capacity: 16 << 10)
    /// Where the open data frame starts (events made durable in the block
    /// being filled), if there is one.
    @exclusivity(unchecked) private(set) var frameOffset: Int64?
    private(set) var entries: [BlockEntry] = []
    private(set) var checkpoints: [CheckpointRef] = []
    @exclusivity(unchecked) private var unsynced = false
    /// When the file was last synced (monotonic milliseconds).
    @exclusivity(unchecked) var lastSyncAt: Int64 = 0

    init(file: OpenFile, options: LogWriterOptions, encoder: LZ4FrameEncoder, out: ByteBuffer) {
        self.path = file.path
        self.file = file
        self.options = options
        self.encoder = encoder
        self.out = out
    }

    /// Continues after the body `index` describes, ending at `end`.
    func resume(from index: LogIndex, end: Int64) {
        entries = index.entries
        checkpoints = index.checkpoints
        nextFrameIndex = index.nextFrameIndex
        self.end = end
    }

    // MARK: Blocks

    /// Compresses a sealed block's lines (finishing the open data frame, if
    /// any), then writes the frame's rest, the block's entry and its
    /// checkpoint in one write; syncs with `everySeal` unless `syncing` is
    /// `false` (a later block of the same group will).
    func write(_ sealed: SealedBlock, syncing: Bool = true) throws(FileError) {
        out.removeAll()
        do {
            if frameOffset == nil { try encoder.begin(contentSize: sealed.lines.count, into: out) }
            try encoder.update(sealed.lines.bytes, into: out, lastOfFrame: true)
            try encoder.end(into: out)
        } catch {
            throw FileError(path: path, kind: .compression(error), offset: end, seq: sealed.stats.firstSeq)
        }
        let dataOffset = frameOffset ?? end
        try finishBlock(sealed, dataOffset: dataOffset, contentChecksum: out.bytes.loadLE32(out.count - 4),
                        syncing: syncing)
    }

    /// Compresses `lines` (raw lines of the block being filled) as new LZ4
    /// blocks of the open data frame, opening it if needed, and writes them.
    func writeOpenFrame(_ lines: ByteBuffer) throws(FileError) {
        out.removeAll()
        do {
            if frameOffset == nil {
                frameOffset = end
                try encoder.begin(contentSize: nil, into: out)
            }
            try encoder.update(lines.bytes, into: out)
        } catch {
            throw FileError(path: path, kind: .compression(error), offset: end)
        }
        try file.write(out.bytes, at: end)
        end += Int64(out.count)
        unsynced = true
    }

    /// Writes `out` (the end of the block's data frame) followed by the
    /// block's entry and, when due, a checkpoint — in one write.
    func finishBlock(
        _ sealed: SealedBlock, dataOffset: Int64, contentChecksum: UInt32, syncing: Bool = true
    ) throws(FileError) {
        let stats = sealed.stats
        let dataLength = Int(end - dataOffset) + out.count
        let entry = BlockEntry(
            blockIndex: entries.count, dataOffset: dataOffset, dataLength: dataLength,
            contentSize: stats.rawBytes, eventCount: stats.eventCount, contentChecksum: contentChecksum,
            firstSeq: stats.firstSeq, lastSeq: stats.lastSeq, firstT: stats.firstT, lastT: stats.lastT,
            minT: stats.minT, maxT: stats.maxT, runningMaxT: sealed.runningMaxT, stateHash: sealed.stateHash,
            timeOrdered: sealed.timeOrdered, dataFrameIndex: nextFrameIndex)
        var records: [UInt8] = []
        entry.appendFrame(to: &records)
        var checkpoint: CheckpointRef?
        // A state too big to decode back is not checkpointed: readers then
        // fold from the previous checkpoint, slower but exact.
        if let json = sealed.checkpointJSON, json.count <= StateChain.maxCheckpointJSONBytes {
            checkpointScratch.removeAll()
            do {
                try json.withUnsafeBytes { buf in
                    Result { () throws(LZ4FrameError) in try encoder.compressFrame(buf, into: checkpointScratch) }
                }.get()
            } catch {
                throw FileError(path: path, kind: .compression(error), offset: end, seq: stats.lastSeq)
            }
            let offset = end + Int64(out.count + records.count)
            let before = records.count
            CheckpointRecord(blockIndex: entry.blockIndex, seq: entry.lastSeq, stateHash: sealed.stateHash, jsonBytes: json.count)
                .appendFrame(compressedJSON: checkpointScratch.bytes, to: &records)
            checkpoint = CheckpointRef(offset: offset, frameLength: records.count - before, seq: entry.lastSeq,
                                       blockIndex: entry.blockIndex, frameIndex: nextFrameIndex + 2)
        }
        out.append(records)
        try file.write(out.bytes, at: end)
        end += Int64(out.count)
        nextFrameIndex += checkpoint == nil ? 2 : 3
        entries.append(entry)
        if let checkpoint { checkpoints.append(checkpoint) }
        if frameOffset != nil { frameOffset = nil }
        unsynced = true
        if syncing && options.durability == .everySeal { try sync() }
    }

    /// Writes the footer and trailer, when they fit (a log too big for one
    /// is read without it), after the last block.
    func writeFooter(eventCount: Int) throws(FileError) {
        let footer = Footer(entries: entries, checkpoints: checkpoints, eventCount: eventCount,
                            footerOffset: end, frameIndex: nextFrameIndex)
        if Footer.frameBytes(blocks: entries.count, checkpoints: checkpoints.count) <= NavLogFormat.maxFooterBytes {
            var bytes: [UInt8] = []
            footer.appendFrames(to: &bytes)
            try file.write(bytes, at: end)
            end += Int64(bytes.count)
            unsynced = true
        }
    }

    // MARK: The file

    /// Syncs what was written since the last sync.
    func sync() throws(FileError) {
        if unsynced {
            try file.sync()
            unsynced = false
        }
        lastSyncAt = OpenFile.monotonicMilliseconds()
    }

    /// Writes a new log's preamble and makes it and the file's name durable.
    func writePreamble() throws(FileError) {
        var bytes = NavLogFormat.emptyFrame
        FileHeader(blockTargetBytes: UInt32(options.blockTargetBytes),
                   checkpointInterval: UInt32(min(options.checkpointInterval, Int(UInt32.max))),
                   lz4BlockSizeID: options.frameSettings.blockSize.rawValue)
            .appendFrame(to: &bytes)
        try file.write(bytes, at: 0)
        try file.sync()
        try OpenFile.syncDirectory(containing: path)
        end = Int64(bytes.count)
        nextFrameIndex = 2
    }
}

/// Facts about the block being filled.
struct BlockStats {
    var eventCount = 0
    var rawBytes = 0
    var firstSeq = 0
    var lastSeq = 0
    var firstT: Int64 = 0
    var lastT: Int64 = 0
    var minT: Int64 = 0
    var maxT: Int64 = 0
    var startedAt: Int64 = 0

    /// Counts in an event numbered `seq` at `t` (ms): the block's seq and
    /// time ranges. Returns whether it is the block's first.
    @inline(__always) @discardableResult
    mutating func count(seq: Int, t: Int64) -> Bool {
        let first = eventCount == 0
        if first {
            firstSeq = seq
            firstT = t
            minT = t
            maxT = t
        }
        eventCount += 1
        lastSeq = seq
        lastT = t
        minT = min(minT, t)
        maxT = max(maxT, t)
        return first
    }
}

/// A block sealed by the appending thread, on its way to the file: its raw
/// lines and everything its entry and checkpoint record.
struct SealedBlock: @unchecked Sendable {
    /// The block's canonical lines (handed over: the appender fills another buffer).
    var lines: ByteBuffer
    var stats: BlockStats
    var runningMaxT: Int64
    var timeOrdered: Bool
    /// h_k, the state-chain hash at the block's end.
    var stateHash: UInt64
    /// The checkpoint's JSON, when one is due.
    var checkpointJSON: [UInt8]?
}
