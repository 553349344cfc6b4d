import NavLogCore

/// Builds the bytes of one commit (schemas/segment-store.md §4, §5): the
/// sessions' runs in session-key order cut into data frames at the block
/// target, the checkpoints that fall in it, and its commit index last.
/// Advances each session's position as its lines go in, and its chain and
/// state only where a checkpoint falls (schemas/segment-store.md §8).
struct CommitBuilder {
    private let number: UInt64
    private let base: Int64
    private let options: SegmentWriterOptions
    private let encoder: LZ4FrameEncoder
    /// The commit's data frames, as they will be on disk.
    private let out = ByteBuffer(capacity: 4 << 20)
    private let raw: ByteBuffer
    private var blocks: [CommitIndex.Block] = []
    private var checkpointFrames: [(ref: CommitIndex.Checkpoint, bytes: [UInt8])] = []
    private var bloom: BloomFilter
    private var sessions = 0
    private var events = 0
    private var minT = Int64.max, maxT = Int64.min
    /// The block being filled: its first session hash, whether that continues the previous block, events.
    private var blockFirst: (hash: UInt64, continues: Bool)?
    private var blockEvents = 0
    private var lastHash: UInt64?
    private var fold = SessionFold()

    init(number: UInt64, base: Int64, options: SegmentWriterOptions, expectedSessions: Int = 1024) throws(SegmentStoreError) {
        self.number = number
        self.base = base
        self.options = options
        do { encoder = try LZ4FrameEncoder(settings: options.lz4) } catch { throw .compression(error) }
        raw = ByteBuffer(capacity: options.blockTarget + 4096)
        bloom = BloomFilter(sessions: expectedSessions)
    }

    /// Adds a session's pending lines (its run), advancing its position;
    /// folds them into its chain and state when ``WriterSession/foldsInCommit(interval:)``
    /// (the writer has caught the session up first), with a checkpoint at
    /// every multiple of K.
    mutating func add(_ session: WriterSession, arena: ByteBuffer) throws(SegmentStoreError) {
        sessions += 1
        bloomHashes.append(session.key.hash)
        let folding = session.foldsInCommit(interval: options.checkpointInterval)
        precondition(!folding || session.folded, "the writer catches a folding session up first")
        for entry in session.pending {
            let line = UnsafeRawBufferPointer(start: arena.base + entry.start, count: entry.length)
            if raw.count == 0 { blockFirst = (session.key.hash, lastHash == session.key.hash) }
            raw.appendLine(line)
            blockEvents += 1
            lastHash = session.key.hash
            minT = min(minT, entry.t)
            maxT = max(maxT, entry.t)
            session.count += 1
            if folding {
                fold.fold(line, into: &session.state!)
                session.chain = SessionChain.link(session.chain, line: line)
                if session.count % options.checkpointInterval == 0 {
                    try addCheckpoint(session, seq: entry.seq)
                }
            }
            events += 1
            if raw.count >= options.blockTarget { try cutBlock() }
        }
        session.folded = folding
    }
    private var bloomHashes: [UInt64] = []

    private mutating func addCheckpoint(_ session: WriterSession, seq: Int) throws(SegmentStoreError) {
        guard let state = session.state else { return }
        let json = StateChain.checkpointJSON(state.state)
        guard json.count <= StateChain.maxCheckpointJSONBytes else { return }
        let checkpoint = SessionCheckpoint(key: session.key, position: session.count, seq: seq, chain: session.chain, json: json)
        do {
            let bytes = try checkpoint.frame(encoder: encoder)
            checkpointFrames.append((CommitIndex.Checkpoint(sessionHash: session.key.hash, position: session.count,
                                                            offset: 0, length: bytes.count), bytes))
        } catch { throw .compression(error) }
    }

    private mutating func cutBlock() throws(SegmentStoreError) {
        guard raw.count > 0, let first = blockFirst else { return }
        let start = out.count
        do { try encoder.compressFrame(raw.bytes, into: out) } catch { throw .compression(error) }
        let checksum = UnsafeRawBufferPointer(start: out.base + out.count - 4, count: 4).loadLE32(0)
        blocks.append(CommitIndex.Block(offset: base + Int64(start), length: out.count - start, rawSize: raw.count,
                                        eventCount: blockEvents, contentChecksum: checksum,
                                        firstHash: first.hash, continues: first.continues))
        raw.removeAll()
        blockEvents = 0
        blockFirst = nil
    }

    /// The commit's bytes, its index, and where the index frame is.
    mutating func finish() throws(SegmentStoreError) -> (ByteBuffer, CommitIndex, CommitIndexLocation) {
        try cutBlock()
        var refs: [CommitIndex.Checkpoint] = []
        for (ref, bytes) in checkpointFrames {
            var placed = ref
            placed.offset = base + Int64(out.count)
            refs.append(placed)
            out.append(bytes)
        }
        var filter = BloomFilter(sessions: sessions)
        for hash in bloomHashes { filter.insert(hash) }
        bloom = filter
        let index = CommitIndex(number: number, firstBlockOffset: blocks.first?.offset ?? base, blocks: blocks,
                                checkpoints: refs, sessionCount: sessions, eventCount: events,
                                minT: minT == .max ? 0 : minT, maxT: maxT == .min ? 0 : maxT, bloom: filter)
        let location = CommitIndexLocation(offset: base + Int64(out.count), length: 0)
        var record: [UInt8] = []
        SkippableFrame.appendRecord(.commitIndex, body: index.body(), to: &record)
        out.append(record)
        return (out, index, CommitIndexLocation(offset: location.offset, length: record.count))
    }
}
