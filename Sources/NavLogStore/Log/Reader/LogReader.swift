import NavLogCore

/// Reads a `.navlog` file: its index, its events in order, and the state at
/// any point (schemas/navlog-format.md §8).
///
/// ```swift
/// let reader = try LogReader(path: "s-1.navlog")
/// let cursor = reader.cursor(fromSeq: 100)
/// while let event = try cursor.next() { … }
/// let state = try reader.state(afterSeq: 4242)
/// ```
///
/// Opening a closed file reads its footer (two reads); a file without a
/// valid footer is walked frame by frame. A torn or damaged tail does not
/// stop the open: the reader holds the valid prefix, and ``damage`` says
/// where and why the rest was left out. Readers take no lock.
public final class LogReader {
    /// The file.
    public let path: String
    /// The header record.
    public private(set) var header: FileHeader
    /// The committed blocks, in order.
    public private(set) var blocks: [BlockEntry]
    /// The checkpoints, in order.
    public private(set) var checkpoints: [CheckpointRef]
    /// How the index was obtained.
    public private(set) var indexSource: IndexSource
    /// What was left out at the end of the file, if anything.
    public private(set) var damage: LogDamage?
    /// The file size the reader works against.
    public private(set) var fileSize: Int64

    /// Where the index came from.
    public enum IndexSource: Sendable, Hashable {
        /// The footer and trailer of a closed file.
        case footer
        /// A walk over the frames (no valid footer: the file is being
        /// written, was not closed, or its footer is damaged).
        case walk
    }

    let file: OpenFile
    private let window: FileWindow
    private var index: LogIndex
    /// The verified lines of an unfinished data frame at the end, and their events.
    private(set) var tailLines: [UInt8] = []
    private(set) var tailEvents: [Event] = []
    private lazy var blockReader: BlockReader? = try? BlockReader(file: file)
    private var cachedSession: String?

    /// Opens the log at `path` for reading.
    ///
    /// - Throws: ``FileError`` for I/O trouble, a file that is not a navlog
    ///   (`.notANavlog`), or an unsupported version. Damage after the
    ///   preamble is not thrown: see ``damage``.
    /// - Complexity: two reads for a closed file; otherwise a walk reading
    ///   O(frames) headers.
    public convenience init(path: String) throws(FileError) {
        try self.init(path: path, preloadingUpTo: 0)
    }

    /// Opens the log at `path` for reading; a file of at most `limit` bytes
    /// is read whole with one read, and its blocks are then served from
    /// memory: for scans over thousands of small closed logs, where the
    /// system calls would cost more than the reading. Bytes a writer
    /// rewrites in place later (finishing a torn frame) are not seen.
    public init(path: String, preloadingUpTo limit: Int) throws(FileError) {
        self.path = path
        file = try OpenFile(path: path, mode: .read)
        if limit > 0 { try file.preload(upTo: limit) }
        fileSize = try file.size()
        window = FileWindow(file: file, fileSize: fileSize)
        let (index, source) = try LogIndex.load(file: file, window: window)
        self.index = index
        header = index.header ?? FileHeader(blockTargetBytes: 0, checkpointInterval: 0, lz4BlockSizeID: 0)
        blocks = index.entries
        checkpoints = index.checkpoints
        indexSource = source == .footer ? .footer : .walk
        try loadTail()
    }

    /// Data frames (blocks) decompressed so far by this reader and its
    /// cursors, the unfinished frame at the end not counted.
    public var blocksDecompressed: Int { file.blocksDecompressed }

    /// Committed blocks that neither this reader nor its cursors have
    /// decompressed, so whose checksums nothing has checked yet (see ``checkBlocks()``).
    public var blocksNotRead: Int { blocks.count - blocks.lazy.filter { self.file.framesDecompressed.contains($0.dataOffset) }.count }

    /// Events in the log (committed blocks and the verified tail).
    public var eventCount: Int { index.eventCount + tailEvents.count }

    /// The seq of the first event, if any.
    public var firstSeq: Int? { blocks.first?.firstSeq ?? tailEvents.first?.seq }

    /// The seq of the last event, if any.
    public var lastSeq: Int? { tailEvents.last?.seq ?? blocks.last?.lastSeq }

    /// Smallest and largest `t` (ms) of the unfinished data frame's events, if any.
    public var tailRange: ClosedRange<Int64>? {
        guard let first = tailEvents.first else { return nil }
        var low = first.t.milliseconds, high = low
        for e in tailEvents {
            low = min(low, e.t.milliseconds)
            high = max(high, e.t.milliseconds)
        }
        return low...high
    }

    /// Bytes of the unfinished data frame's verified lines (0 when none).
    public var tailContentBytes: Int { tailLines.count }

    /// Whether the file ends with a valid footer (it was closed).
    public var isClosed: Bool { index.footerOffset != nil && damage == nil && tailEvents.isEmpty }

    /// The session of the log (`nil` when it holds no event).
    public func session() throws(FileError) -> String? {
        if cachedSession == nil { cachedSession = try committedSession() ?? tailEvents.first?.session }
        return cachedSession
    }

    /// The session of the log's committed blocks (`nil` when there are none).
    private func committedSession() throws(FileError) -> String? {
        if let ref = checkpoints.first { return try loadCheckpoint(ref).state.session }
        guard let first = blocks.first else { return nil }
        let reader = try requireBlockReader()
        try reader.read(first)
        var session: String?
        try forEachLine(in: reader.content.bytes) { (line, _) throws(FileError) in
            session = try reader.parse(line, of: first).session
            return false
        }
        return session
    }

    // MARK: Following a growing file

    /// Looks again at the file: new committed blocks and new verified tail
    /// events become visible. What the reader hands out stays a prefix of
    /// the log. Returns whether anything changed.
    @discardableResult
    public func refresh() throws(FileError) -> Bool {
        let size = try file.size()
        if size == fileSize { return false }
        let before = (blocks.count, tailEvents.count, damage)
        window.fileSize = size
        window.invalidate()
        if size < index.bodyEnd || index.header == nil {
            // Cut below what we knew (a repair): start over.
            let (fresh, source) = try LogIndex.load(file: file, window: window)
            index = fresh
            indexSource = source == .footer ? .footer : .walk
            header = index.header ?? header
        } else {
            try LogWalker(path: path, window: window).resume(&index)
            indexSource = .walk
        }
        fileSize = size
        blocks = index.entries
        checkpoints = index.checkpoints
        try loadTail()
        return before.0 != blocks.count || before.1 != tailEvents.count || before.2 != damage
    }

    // MARK: Reading events

    /// A cursor over the events with `fromSeq ≤ seq ≤ toSeq`, in order.
    ///
    /// - Complexity: positioning is a binary search over the blocks; no
    ///   earlier block is decompressed.
    public func cursor(fromSeq: Int = 1, toSeq: Int = Int.max) -> LogCursor {
        LogCursor(reader: self, fromSeq: fromSeq, toSeq: toSeq, scratch: nil)
    }

    /// A cursor like ``cursor(fromSeq:toSeq:)`` that borrows `scratch`'s LZ4
    /// decoder, buffers and parser instead of making its own: for scans
    /// that read thousands of small logs one after another.
    public func cursor(fromSeq: Int = 1, toSeq: Int = Int.max, sharing scratch: LogScanScratch) -> LogCursor {
        LogCursor(reader: self, fromSeq: fromSeq, toSeq: toSeq, scratch: scratch)
    }

    /// Calls `body` with the verified content (whole canonical lines, each
    /// ending in `\n`) of each block in order, then of the tail: exactly what
    /// `lz4 -dc` prints for an intact file.
    public func forEachContent(_ body: (UnsafeRawBufferPointer) -> Void) throws(FileError) {
        let reader = try requireBlockReader()
        for entry in blocks {
            try reader.read(entry)
            body(reader.content.bytes)
        }
        if !tailLines.isEmpty { tailLines.withUnsafeBytes { body($0) } }
    }

    /// The index of the first block whose last seq is ≥ `seq`, or `blocks.count`.
    /// - Complexity: O(log blocks).
    public func blockIndex(containingSeq seq: Int) -> Int {
        var low = 0, high = blocks.count
        while low < high {
            let mid = (low + high) / 2
            if blocks[mid].lastSeq < seq { low = mid + 1 } else { high = mid }
        }
        return low
    }

    // MARK: Internals

    func requireBlockReader() throws(FileError) -> BlockReader {
        if let blockReader { return blockReader }
        return try BlockReader(file: file)
    }

    /// Decodes the unfinished data frame at the end (if any): its complete,
    /// verified LZ4 blocks, cut to whole lines, each a valid event of the
    /// log's session continuing the seqs (what a writer keeps of it). Sets ``damage``.
    private func loadTail() throws(FileError) {
        tailLines = []
        tailEvents = []
        damage = nil
        if let open = index.openFrame {
            let reader = try BlockReader(file: file)
            let kept = try reader.readOpenEvents(open, after: index.lastSeq, session: try committedSession())
            // A damaged open frame: nothing of it is handed out.
            if kept.lineProblem == nil { tailLines = [UInt8](reader.content.bytes) }
            tailEvents = kept.events
            let cause = kept.lineProblem ?? kept.salvage.problem ?? (open.finished ? .noEntry : .unfinished)
            damage = LogDamage(offset: open.offset, frame: open.frameIndex, droppedBytes: fileSize - open.offset,
                               cause: .openFrame(cause), recoveredEvents: tailEvents.count)
        } else if let stop = index.stop {
            damage = LogDamage(offset: stop.offset, frame: stop.frame, droppedBytes: fileSize - stop.offset,
                               cause: stop.kind, recoveredEvents: 0)
        }
    }

    func loadCheckpoint(_ ref: CheckpointRef) throws(FileError) -> (state: NavigationState, hash: UInt64) {
        let decoder: LZ4FrameDecoder
        do { decoder = try LZ4FrameDecoder() } catch { throw FileError(path: path, kind: .compression(error)) }
        return try CheckpointRecord.loadState(from: file, ref: ref, decoder: decoder, scratch: ByteBuffer())
    }
}

/// What a reader left out at the end of a file, LevelDB-style: where, how
/// many bytes, and why.
public struct LogDamage: Hashable, Sendable, CustomStringConvertible {
    /// Byte offset of the first byte not read as committed log.
    public var offset: Int64
    /// The frame index there.
    public var frame: Int?
    /// Bytes from `offset` to the end of the file.
    public var droppedBytes: Int64
    /// Why.
    public var cause: LogFault
    /// Why, as text.
    public var reason: String { cause.description }
    /// Whether this looks like a write cut short by a crash or still in
    /// progress (as opposed to damaged bytes).
    public var isTornTail: Bool { TornTailRule.lastValidUnit.isTornTail(at: offset, cutShort: cause.isTornTail) }
    /// Events recovered from an unfinished data frame there.
    public var recoveredEvents: Int

    public var description: String {
        let recovered = recoveredEvents > 0 ? " (\(recoveredEvents) events recovered from it)" : ""
        return "\(placeText(offset: offset, frame: frame)): \(reason); \(droppedBytes) bytes not committed\(recovered)"
    }
}
