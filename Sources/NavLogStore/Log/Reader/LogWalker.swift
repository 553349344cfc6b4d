/// Rebuilds a file's index by walking its frames from the start (or from
/// where a previous walk ended), reading headers only
/// (schemas/navlog-format.md §8): the `.navlog` grammar over the one walk
/// (``FileWindow/walk(from:frame:_:)``). A unit is a data frame, its block
/// entry and the checkpoint after it. The walk stops at the first frame that
/// is cut short by the end of the file (a torn tail) or damaged; everything
/// before it is the log.
struct LogWalker: UnitGrammar {
    let path: String
    let window: FileWindow
    /// Scratch for record payloads (bounded by the per-record limits).
    private let payload = ByteBuffer(capacity: 4096)
    /// What the walk has found so far.
    private var index = LogIndex()
    /// Whether the last unit ended with a block entry (its checkpoint may follow).
    private var lastWasBlock = false

    init(path: String, window: FileWindow) {
        self.path = path
        self.window = window
    }

    /// Walks the whole file.
    ///
    /// - Throws: I/O errors, and ``FileError/Kind/notANavlog`` or
    ///   ``FileError/Kind/unsupportedVersion`` when the preamble is wrong.
    ///   Torn tails and damage after the preamble are reported in
    ///   ``LogIndex/stop``, not thrown.
    func walk() throws(FileError) -> LogIndex {
        var index = LogIndex()
        index.fileSize = window.fileSize
        guard let header = try readPreamble(&index) else { return index }
        index.header = header
        index.bodyEnd = Int64(NavLogFormat.preambleBytes)
        index.nextFrameIndex = 2
        try resume(&index)
        return index
    }

    /// Continues a walk from ``LogIndex/bodyEnd`` against the current file size.
    func resume(_ index: inout LogIndex) throws(FileError) {
        index.fileSize = window.fileSize
        index.openFrame = nil
        index.stop = nil
        index.footerOffset = nil
        var grammar = self
        // Resuming right after a block entry (a follower that stopped before
        // the block's checkpoint was fully written): the checkpoint still
        // follows that block.
        grammar.lastWasBlock = index.entries.last.map {
            $0.dataEnd + Int64(8 + NavLogFormat.blockEntryPayloadBytes) == index.bodyEnd
        } ?? false
        swap(&grammar.index, &index)
        defer { swap(&grammar.index, &index) }
        try window.walk(from: grammar.index.bodyEnd, frame: grammar.index.nextFrameIndex, &grammar)
    }

    mutating func meet(_ met: FrameMet, at offset: Int64, frame: Int) throws(FileError) -> WalkStep {
        switch met {
        case .endOfFile:
            return .stop
        case .truncated(let why):
            return stop(.tornTail(why), offset: offset, frame: frame)
        case .invalid(let why):
            return stop(.badFrame(why), offset: offset, frame: frame)
        case .data(let extent):
            guard let length = extent.length else {
                index.openFrame = OpenFrame(offset: offset, frameIndex: frame,
                                            completeLength: extent.completeLength, finished: false)
                return .stop
            }
            let entryOffset = offset + Int64(length)
            switch try readEntry(at: entryOffset) {
            case .missing:
                index.openFrame = OpenFrame(offset: offset, frameIndex: frame, completeLength: length, finished: true)
                return .stop
            case .bad(let why):
                return stop(.noEntry(dataOffset: offset, why),
                                   offset: entryOffset, frame: frame + 1, seq: index.lastSeq + 1)
            case .entry(let entry):
                if let why = disagreement(entry, offset: offset, length: length, extent: extent, frame: frame) {
                    return stop(.entryDisagrees(why), offset: entryOffset, frame: frame + 1, seq: entry.firstSeq)
                }
                index.entries.append(entry)
                index.eventCount += entry.eventCount
                return bodyGoesOn(to: entryOffset + Int64(8 + NavLogFormat.blockEntryPayloadBytes),
                                  frame: frame + 2, afterBlock: true)
            }
        case .foreign(_, let size):
            // Another program's skippable frame: passed over.
            return bodyGoesOn(to: offset + 8 + Int64(size), frame: frame + 1, afterBlock: false)
        case .record(let record):
            let size = record.payloadSize
            guard size >= 8 else { return stop(.recordTooShort(bytes: size), offset: offset, frame: frame) }
            switch NavLogFormat.Tag(rawValue: try record.tag()) {
            case .checkpoint:
                switch try readCheckpoint(at: offset, size: size, frame: frame, afterBlock: lastWasBlock) {
                case .failure(let why):
                    return stop(.checkpoint(why), offset: offset, frame: frame, seq: index.entries.last?.lastSeq)
                case .success(let ref):
                    index.checkpoints.append(ref)
                }
                return bodyGoesOn(to: record.end, frame: frame + 1, afterBlock: false)
            case .footer:
                // A footer (and its trailer) describe the file up to here:
                // passed over; noted when they end the file.
                if let trailerEnd = try footerAndTrailerEnd(footerOffset: offset, footerSize: size),
                   trailerEnd == window.fileSize {
                    index.footerOffset = offset
                    return .stop
                }
                return .next
            case .trailer:
                return .next
            case .block:
                return stop(.entryWithoutData, offset: offset, frame: frame)
            case .header:
                return stop(.secondHeader, offset: offset, frame: frame)
            case nil:
                // A record kind from a newer minor version: passed over.
                return bodyGoesOn(to: record.end, frame: frame + 1, afterBlock: false)
            }
        }
    }

    /// The body (where a writer appends) reaches `end`, frame number `frame`.
    private mutating func bodyGoesOn(to end: Int64, frame: Int, afterBlock: Bool) -> WalkStep {
        index.bodyEnd = end
        index.nextFrameIndex = frame
        lastWasBlock = afterBlock
        return .resume(at: end, frame: frame)
    }

    /// Stops the walk at a problem: a torn tail or damage, as ``TornTailRule`` tells them apart.
    private mutating func stop(_ why: LogFault, offset: Int64, frame: Int, seq: Int? = nil) -> WalkStep {
        index.stop = Damage(file: path, offset: offset, frame: frame, seq: seq, kind: why)
        return .stop
    }

    // MARK: Preamble

    /// Checks the empty frame and the header. Returns `nil` (with
    /// ``LogIndex/stop`` set) for a file cut short inside a valid-looking preamble.
    private func readPreamble(_ index: inout LogIndex) throws(FileError) -> FileHeader? {
        let bytes = try window.view(at: 0, count: NavLogFormat.preambleBytes)
        if let difference = Preamble.difference(bytes) { throw difference.error(path) }
        if bytes.count < NavLogFormat.preambleBytes {
            index.stop = Damage(file: path, offset: 0, frame: bytes.count < NavLogFormat.emptyFrame.count ? 0 : 1,
                                kind: .tornTail(.preamble(bytes: bytes.count)))
            return nil
        }
        let payloadStart = NavLogFormat.emptyFrame.count + 8
        let payload = UnsafeRawBufferPointer(rebasing: bytes[payloadStart..<NavLogFormat.preambleBytes])
        let checked = SkippableFrame.checkRecord(payload)
        if case .failure(let problem) = checked {
            throw FileError.corrupt(path, .headerRecord(problem), offset: Int64(NavLogFormat.emptyFrame.count), frame: 1)
        }
        guard let header = FileHeader(payload: payload) else {
            throw FileError(path: path, kind: .notANavlog(.headerRecordSize), offset: Int64(NavLogFormat.emptyFrame.count), frame: 1)
        }
        guard header.majorVersion == NavLogFormat.majorVersion else {
            throw FileError(path: path, kind: .unsupportedVersion(major: header.majorVersion, minor: header.minorVersion),
                           offset: Int64(NavLogFormat.emptyFrame.count), frame: 1)
        }
        return header
    }

    // MARK: Entries

    enum EntryRead {
        /// The file ends before a complete entry frame.
        case missing
        case bad(EntryFault)
        case entry(BlockEntry)
    }

    /// Reads the block entry that must follow a data frame.
    func readEntry(at offset: Int64) throws(FileError) -> EntryRead {
        let frameBytes = 8 + NavLogFormat.blockEntryPayloadBytes
        let view = try window.view(at: offset, count: frameBytes)
        if view.count == 0 { return .missing }
        // A prefix of what an entry frame starts with, cut by the end of file: torn.
        if view.count < frameBytes {
            var start: [UInt8] = []
            start.appendLE(NavLogFormat.navlogSkippableMagic)
            start.appendLE(UInt32(NavLogFormat.blockEntryPayloadBytes))
            start.appendLE(NavLogFormat.Tag.block.rawValue)
            for i in 0..<min(view.count, start.count) where view[i] != start[i] {
                return .bad(.notAnEntry(offset: offset))
            }
            return .missing
        }
        guard view.loadLE32(0) == NavLogFormat.navlogSkippableMagic,
              view.loadLE32(4) == UInt32(NavLogFormat.blockEntryPayloadBytes)
        else { return .bad(.noFrameHeader) }
        let payload = UnsafeRawBufferPointer(rebasing: view[8..<frameBytes])
        switch SkippableFrame.checkRecord(payload) {
        case .failure(let problem): return .bad(.record(problem))
        case .success(let tag):
            guard tag == NavLogFormat.Tag.block.rawValue else { return .bad(.tag) }
        }
        guard let entry = BlockEntry(payload: payload) else { return .bad(.fieldsOutOfRange) }
        return .entry(entry)
    }

    /// Why an entry does not describe the data frame before it, if it does not.
    private func disagreement(
        _ e: BlockEntry, offset: Int64, length: Int, extent: LZ4FrameExtent, frame: Int
    ) -> EntryDisagreement? {
        if let first = e.disagreements(offset: offset, length: length, index: index.entries.count, frame: frame,
                                       checksum: extent.contentChecksum).first { return first }
        if let size = extent.descriptor.contentSize, size != UInt64(e.contentSize) {
            return .contentSize(entry: e.contentSize, frameHeader: size)
        }
        if e.contentSize > NavLogFormat.maxBlockContentBytes { return .contentOverLimit(entry: e.contentSize) }
        if e.firstSeq <= index.lastSeq { return .firstSeq(e.firstSeq, previous: index.lastSeq) }
        let previousMax = index.entries.last?.runningMaxT ?? Int64.min
        if e.runningMaxT != max(previousMax, e.maxT) { return .runningMaxT }
        return nil
    }

    // MARK: Checkpoints and footer

    private func readCheckpoint(
        at offset: Int64, size: Int, frame: Int, afterBlock: Bool
    ) throws(FileError) -> Result<CheckpointRef, CheckpointFault> {
        guard size <= CheckpointRecord.maxPayloadBytes else {
            return .failure(.overLimit(bytes: size))
        }
        payload.removeAll()
        try window.file.read(count: size, at: offset + 8, appendingTo: payload)
        guard payload.count == size else { return .failure(.cutShort) }
        switch SkippableFrame.checkRecord(payload.bytes) {
        case .failure(let problem): return .failure(.record(problem))
        case .success: break
        }
        guard let record = CheckpointRecord(payload: payload.bytes) else { return .failure(.fieldsOutOfRange) }
        guard afterBlock, let last = index.entries.last else { return .failure(.notAfterBlock) }
        if let why = record.mismatch(after: last) { return .failure(why) }
        return .success(CheckpointRef(offset: offset, frameLength: 8 + size, seq: record.seq,
                                      blockIndex: record.blockIndex, frameIndex: frame))
    }

    /// When a valid trailer pointing at `footerOffset` follows the footer
    /// frame, the offset where the trailer ends.
    private func footerAndTrailerEnd(footerOffset: Int64, footerSize: Int) throws(FileError) -> Int64? {
        let trailerOffset = footerOffset + 8 + Int64(footerSize)
        let view = try window.view(at: trailerOffset, count: NavLogFormat.trailerFrameBytes)
        guard view.count == NavLogFormat.trailerFrameBytes,
              let pointed = Trailer.footerOffset(frame: view), pointed == footerOffset else { return nil }
        return trailerOffset + Int64(NavLogFormat.trailerFrameBytes)
    }
}
