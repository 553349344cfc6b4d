#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Appends events to a `.navlog` file (schemas/navlog-format.md §6).
///
/// ```swift
/// let writer = try LogWriter(path: "s-1.navlog")
/// try writer.append(event)             // validated, then accepted
/// try writer.flush()                   // durable when it returns
/// try writer.close()                   // seals, writes the footer
/// ```
///
/// One writer per file: the writer holds an exclusive lock from `init` until
/// `close()` (or until it is released); a second writer gets
/// ``LogError/Kind/locked``. Readers are never blocked.
///
/// Events appended but not made durable are lost if the process dies, or if
/// the writer is released without `close()` — either way the file stays
/// valid. A writer whose write or sync failed refuses further use (the
/// error is thrown again); reopening the file recovers its tail.
///
/// Opening an existing file continues it. A torn tail left by a crash is cut
/// (the cut bytes are kept in a side file, see ``recovery``) and an
/// unfinished data frame is finished in place, keeping its complete events.
/// A file damaged anywhere else is refused: `navlog repair` decides about it.
///
/// A writer is used from one thread at a time. Its per-event state skips
/// Swift's run-time exclusivity checks (`@exclusivity(unchecked)`): they were
/// a fifth of the time of staging an event.
public final class LogWriter {
    /// The file.
    public let path: String
    /// The settings in force.
    public let options: LogWriterOptions
    /// The seq of the last accepted event (0 when none).
    @exclusivity(unchecked) public private(set) var lastSeq: Int = 0
    /// The session of the log (`nil` until the first event).
    @exclusivity(unchecked) public private(set) var session: String? {
        didSet {
            sessionUTF8 = session.map { Array($0.utf8) } ?? []
            sessionShortKey = sessionUTF8.withUnsafeBytes { ShortSessionKey($0) }
        }
    }
    /// The bytes of `session`, which an event's session must equal exactly.
    @exclusivity(unchecked) private var sessionUTF8: [UInt8] = []
    /// Those bytes as two words, when there are 1 to 16 of them (the usual
    /// case): an event's session is then compared without a call.
    @exclusivity(unchecked) private var sessionShortKey: ShortSessionKey?
    /// Events in the log, including those not yet durable.
    @exclusivity(unchecked) public private(set) var eventCount: Int = 0
    /// What opening had to repair, if anything.
    public private(set) var recovery: LogRecovery?

    let file: LogFile
    @exclusivity(unchecked) private var closed = false
    /// The write or sync failure that stopped this writer.
    @exclusivity(unchecked) private var failure: LogError?
    /// Where the next bytes go.
    @exclusivity(unchecked) private var end: Int64 = 0
    private var nextFrameIndex = 2
    private let encoder: LZ4FrameEncoder
    /// Compressed bytes on their way to the file.
    private let out: ByteBuffer
    private let checkpointScratch = ByteBuffer(capacity: 16 << 10)
    /// Raw lines not yet compressed.
    @exclusivity(unchecked) private var pending: ByteBuffer
    /// The thread that compresses and writes sealed blocks, with
    /// ``LogWriterOptions/sealsInBackground``. While it has blocks, it alone
    /// touches the file, `end`, the entries, checkpoints and the encoder;
    /// everything else that touches them drains it first.
    private var sealer: BackgroundSealer?
    @exclusivity(unchecked) private var canonical = CanonicalWriter(capacity: 1024)

    // The block being filled.
    @exclusivity(unchecked) private var frameOffset: Int64?
    @exclusivity(unchecked) private var block = BlockStats()
    // Running facts about the whole log.
    @exclusivity(unchecked) private var runningMaxT = Int64.min
    @exclusivity(unchecked) private var timeOrdered = true
    @exclusivity(unchecked) private var lastT: Int64?
    private(set) var entries: [BlockEntry] = []
    private(set) var checkpoints: [CheckpointRef] = []
    @exclusivity(unchecked) private var eventsSinceCheckpoint = 0
    @exclusivity(unchecked) private var chain: StateChain?
    @exclusivity(unchecked) private var unsynced = false
    /// Who syncs a new file's preamble, if not the writer itself.
    private let preambleSyncer: PreambleSyncer?
    /// The handed-over sync of this file's preamble, until it is done.
    @exclusivity(unchecked) private var preambleSync: PreambleSyncer.Ticket?
    /// Bytes due at the end of the file (they end at `end`), kept while the
    /// preamble's sync is under way (``writeAtEnd(_:)``).
    @exclusivity(unchecked) private var held: ByteBuffer?
    @exclusivity(unchecked) private var lastSyncAt: Int64 = 0

    /// Opens (or creates) the log at `path` for appending and takes its lock.
    ///
    /// - Throws: ``LogError`` — `.locked` when another writer has it,
    ///   `.notANavlog` / `.unsupportedVersion` for a foreign file, `.corrupt`
    ///   for damage that is not a torn tail, `.io` for system errors.
    public convenience init(path: String, options: LogWriterOptions = LogWriterOptions()) throws(LogError) {
        try self.init(path: path, options: options, preambleSyncer: nil)
    }

    /// Opens (or creates) the log at `path`; a new log's preamble is synced
    /// by `preambleSyncer` when given, and waited for before anything more
    /// is written to the file.
    /// Writes with `buffers`, when given: those a closed writer with the
    /// same options handed on (``handOnBuffers()``).
    convenience init(path: String, options: LogWriterOptions, preambleSyncer: PreambleSyncer?,
                     buffers: LogWriterBuffers? = nil) throws(LogError) {
        let file = try LogFile(path: path, mode: .readWrite)
        try file.lockExclusive()
        try self.init(lockedFile: file, options: options, preambleSyncer: preambleSyncer, buffers: buffers)
    }

    /// Continues a file this process already holds the lock of (repair).
    init(lockedFile file: LogFile, options: LogWriterOptions, preambleSyncer: PreambleSyncer? = nil,
         buffers: LogWriterBuffers? = nil) throws(LogError) {
        self.path = file.path
        self.options = options
        self.file = file
        self.preambleSyncer = preambleSyncer
        if let buffers {
            pending = buffers.pending
            out = buffers.out
            encoder = buffers.encoder
        } else {
            // Sized so that a block, the line that fills it and its frame fit
            // without growing (a copy of the whole block, and fresh pages).
            let blockBytes = Self.pendingCapacity(options)
            pending = ByteBuffer(capacity: blockBytes)
            out = ByteBuffer(capacity: blockBytes + Self.outRoom)
            do { encoder = try LZ4FrameEncoder(settings: options.frameSettings) } catch {
                throw LogError(path: file.path, kind: .compression(error.description))
            }
        }
        try open()
        lastSyncAt = LogFile.monotonicMilliseconds()
        if options.sealsInBackground && (options.durability == .everySeal || options.durability == .onFlush) {
            let writer = UnownedWriter(self)
            sealer = BackgroundSealer { block, endsGroup throws(LogError) in
                try writer.writer.write(block, syncing: endsGroup)
            }
        }
    }

    deinit {
        _ = sealer?.stop()
        file.close()
    }

    // MARK: Appending

    /// Validates and appends one event; a `seq` of 0 is assigned
    /// (the last seq + 1). Returns the event's seq.
    ///
    /// The event is refused, and nothing of it written, when its session is
    /// not the log's, its seq does not increase, its `t` is outside years
    /// 0000–9999, or its canonical line is over ``EventParser/maxLineBytes``.
    @discardableResult
    public func append(_ event: Event) throws(LogError) -> Int {
        let seq = try check(event)
        // A common event's line is written straight into the block's buffer,
        // past its end, and kept by moving the end.
        pending.reserve(Self.lineRoom)
        let room = pending.capacity - pending.count - 1
        let written: Int?
        if event.seq == seq {
            written = canonical.writeLine(event, to: pending.base + pending.count, capacity: room)
        } else {
            var numbered = event
            numbered.seq = seq
            written = canonical.writeLine(numbered, to: pending.base + pending.count, capacity: room)
        }
        guard let length = written else {
            try stageWritten(event, seq: seq)
            try failing { () throws(LogError) in
                try acceptStaged(event, seq: seq)
                try afterAppend()
            }
            return seq
        }
        guard length <= EventParser.maxLineBytes else { throw lineTooLong(length, seq: seq) }
        (pending.base + pending.count + length).storeBytes(of: 0x0A, as: UInt8.self)
        pending.count += length + 1
        try failing { () throws(LogError) in
            try accept(event, seq: seq, lineBytes: length + 1)
            try afterAppend()
        }
        return seq
    }

    /// Room kept free past the block's end for a line written in place
    /// (``CanonicalWriter/writeLine(_:to:capacity:)`` writes only lines sure to fit).
    static let lineRoom = 8192 + 1

    /// The block buffer's first capacity: the block target (up to 4 MiB;
    /// bigger blocks grow into theirs) and room for the line that fills it.
    static func pendingCapacity(_ options: LogWriterOptions) -> Int {
        min(options.blockTargetBytes, 4 << 20) + lineRoom
    }

    /// Room in the output buffer past a block's bytes: LZ4 frame and block
    /// headers, checksums, the entry, a checkpoint of a modest state.
    static let outRoom = 64 << 10

    /// Validates every event, then appends them all (or none); durability
    /// applies once, to the whole batch. Returns the seqs assigned.
    @discardableResult
    public func append(contentsOf events: [Event]) throws(LogError) -> ClosedRange<Int>? {
        guard !events.isEmpty else { return nil }
        let savedSession = session, savedLast = lastSeq
        var staged: [(Int, Int)] = []   // (seq, line end in `batch`)
        let batch = ByteBuffer(capacity: events.count * 160)
        do {
            for event in events {
                let seq = try stage(event)
                canonical.bytes.withUnsafeBytes { batch.append($0) }
                staged.append((seq, batch.count))
                // Stage the next one against this one.
                session = event.session
                lastSeq = seq
            }
        } catch {
            session = savedSession
            lastSeq = savedLast
            throw error
        }
        session = savedSession
        lastSeq = savedLast
        try failing { () throws(LogError) in
            var start = 0
            for (i, event) in events.enumerated() {
                let (seq, lineEnd) = staged[i]
                canonical.reset()
                canonical.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: batch.bytes[start..<lineEnd]))
                start = lineEnd
                try acceptStaged(event, seq: seq)
            }
            try afterAppend()
        }
        return staged[0].0...staged[staged.count - 1].0
    }

    /// Appends `event` whose canonical line (without `\n`) the caller
    /// already has — a line ``EventLineParser`` found canonical, with the
    /// event's own seq — so the line is kept instead of written again. The
    /// same checks as ``append(_:)`` apply; the caller vouches for the line.
    @discardableResult @inline(__always)
    func append(_ event: Event, canonicalLine line: UnsafeRawBufferPointer) throws(LogError) -> Int {
        precondition(event.seq != 0, "a canonical line carries its seq")
        let seq = try check(event)
        guard line.count <= EventParser.maxLineBytes else { throw lineTooLong(line.count, seq: seq) }
        try failing { () throws(LogError) in
            pending.appendLine(line)
            try accept(event, seq: seq, lineBytes: line.count + 1)
            try afterAppend()
        }
        return seq
    }

    /// Appends a canonical line (without `\n`) that has no event: the
    /// ingest's fast path. `summary` is the line's, made by `parser`, which
    /// folds it into the state (``EventLineParser/fold(_:line:into:)``).
    /// The same refusals as ``append(_:canonicalLine:)``; the caller
    /// vouches for the line.
    @discardableResult @inline(__always)
    func append(canonicalLine line: UnsafeRawBufferPointer, summary: CanonicalLineSummary,
                parser: inout EventLineParser) throws(LogError) -> Int {
        let seq = summary.seq
        let sessionBytes = UnsafeRawBufferPointer(rebasing: line[summary.session])
        try checkOpen()
        if session != nil, !isLogSession(bytes: sessionBytes) {
            let id = String(decoding: sessionBytes, as: UTF8.self)
            throw LogError(path: path, kind: .rejected("session \"\(id)\" is not the log's session \"\(session!)\""), seq: seq)
        }
        try check(seq: seq)
        try check(summary.t, seq: seq)
        guard line.count <= EventParser.maxLineBytes else { throw lineTooLong(line.count, seq: seq) }
        do {
            // The writer holds the block's buffer: no retain of it per line.
            Unmanaged.passUnretained(pending)._withUnsafeGuaranteedRef { $0.appendLine(line) }
            count(seq: seq, t: summary.t.milliseconds, lineBytes: line.count + 1) {
                String(decoding: sessionBytes, as: UTF8.self)
            }
            chain!.apply(summary, of: line, with: &parser)
            if shouldSeal { try seal() }
            try afterAppend()
        } catch {
            failure = error
            throw error
        }
        return seq
    }

    /// Parses one NDJSON line (``EventParser``), then appends it.
    @discardableResult
    public func append(line: [UInt8]) throws(LogError) -> Int {
        let event: Event
        do { event = try EventParser.parse(line) } catch {
            throw LogError(path: path, kind: .rejected(error.description), seq: lastSeq + 1)
        }
        return try append(event)
    }

    /// Makes every appended event durable: on return they survive a crash.
    public func flush() throws(LogError) {
        guard !closed else { throw LogError(path: path, kind: .closed) }
        if let failure { throw failure }
        try failing { () throws(LogError) in
            try drainSealer()
            try makeDurable()
        }
    }

    /// Waits until the background thread has written every sealed block;
    /// throws the failure of one, if any.
    private func drainSealer() throws(LogError) {
        if let error = sealer?.drain() { throw error }
    }

    /// Runs a step that writes; a failure stops the writer for good.
    private func failing(_ step: () throws(LogError) -> Void) throws(LogError) {
        do { try step() } catch {
            failure = error
            throw error
        }
    }

    /// Seals the open block, writes the footer and trailer, syncs (unless
    /// ``LogWriterOptions/syncsOnClose`` is off), and releases the lock. The
    /// writer cannot be used afterwards.
    public func close() throws(LogError) {
        guard !closed else { return }
        if let failure { throw failure }
        do { try closeFile() } catch {
            failure = error
            throw error
        }
    }

    /// The buffers and compression context of a writer closed without
    /// failure, for the next writer with the same options; `nil` otherwise.
    /// The caller promises to drop this writer: it never touches them again.
    func handOnBuffers() -> LogWriterBuffers? {
        guard closed, failure == nil, sealer == nil, !encoder.inFrame else { return nil }
        return LogWriterBuffers(pending: pending, out: out, encoder: encoder)
    }

    private func closeFile() throws(LogError) {
        try seal()
        try drainSealer()
        try awaitPreamble()
        if let sealer {
            _ = sealer.stop()
            self.sealer = nil
        }
        let footer = Footer(entries: entries, checkpoints: checkpoints, eventCount: eventCount,
                            footerOffset: end, frameIndex: nextFrameIndex)
        if Footer.frameBytes(blocks: entries.count, checkpoints: checkpoints.count) <= NavLogFormat.maxFooterBytes {
            var bytes: [UInt8] = []
            footer.appendFrames(to: &bytes)
            try file.write(bytes, at: end)
            end += Int64(bytes.count)
            unsynced = true
        }
        if options.syncsOnClose { try sync() }
        closed = true
        file.close()
    }

    // MARK: Validation

    /// The earliest and latest instants whose RFC 3339 form has a 4-digit year.
    static let earliestT: Int64 = -62_167_219_200_000
    static let latestT: Int64 = 253_402_300_799_999

    /// Checks `event` against the log and writes its canonical line (with
    /// `\n`) into `canonical`; returns its seq. Changes nothing else.
    private func stage(_ event: Event) throws(LogError) -> Int {
        let seq = try check(event)
        try stageWritten(event, seq: seq)
        return seq
    }

    /// Writes the canonical line (with `\n`) of a checked event, numbered
    /// `seq`, into `canonical`; refuses it when it is over the length limit.
    private func stageWritten(_ event: Event, seq: Int) throws(LogError) {
        canonical.reset()
        if event.seq == seq {
            canonical.write(event)
        } else {
            var numbered = event
            numbered.seq = seq
            canonical.write(numbered)
        }
        guard canonical.bytes.count <= EventParser.maxLineBytes else { throw lineTooLong(canonical.bytes.count, seq: seq) }
        canonical.bytes.append(0x0A)
    }

    /// The refusal of an event whose canonical line is over the limit.
    private func lineTooLong(_ bytes: Int, seq: Int) -> LogError {
        LogError(path: path, kind: .rejected(Self.lineTooLongReason(bytes)), seq: seq)
    }

    /// Why an event whose canonical line has `bytes` bytes (over the limit) is refused.
    static func lineTooLongReason(_ bytes: Int) -> String {
        "canonical line is \(bytes) bytes, over the limit of \(EventParser.maxLineBytes)"
    }

    /// Checks `event` against the log (open, session, seq, `t`); returns the
    /// seq it gets. Changes nothing.
    private func check(_ event: Event) throws(LogError) -> Int {
        try checkOpen()
        func reject(_ why: String, seq: Int?) -> LogError {
            LogError(path: path, kind: .rejected(why), seq: seq)
        }
        guard !event.session.isEmpty else { throw reject("session is empty", seq: event.seq == 0 ? nil : event.seq) }
        if session != nil, !isLogSession(event.session) {
            throw reject("session \"\(event.session)\" is not the log's session \"\(session!)\"", seq: event.seq == 0 ? nil : event.seq)
        }
        let seq: Int
        if event.seq == 0 {
            guard lastSeq < Int.max else { throw reject("the log has reached the largest seq", seq: nil) }
            seq = lastSeq + 1
        } else {
            try check(seq: event.seq)
            seq = event.seq
        }
        try check(event.t, seq: seq)
        return seq
    }

    /// Throws unless the writer can take an event.
    @inline(__always)
    private func checkOpen() throws(LogError) {
        guard !closed else { throw LogError(path: path, kind: .closed) }
        if let failure { throw failure }
    }

    /// Refuses a given `seq` that does not increase.
    @inline(__always)
    private func check(seq: Int) throws(LogError) {
        guard seq > lastSeq else {
            throw LogError(path: path, kind: .rejected("seq \(seq) does not increase (the log's last seq is \(lastSeq))"),
                           seq: seq)
        }
    }

    /// Refuses a `t` outside years 0000–9999.
    @inline(__always)
    private func check(_ t: Timestamp, seq: Int) throws(LogError) {
        guard t.milliseconds >= Self.earliestT, t.milliseconds <= Self.latestT else {
            throw LogError(path: path, kind: .rejected("t is outside years 0000–9999"), seq: seq)
        }
    }

    /// Whether `id` is exactly the log's session (by bytes, ``SessionID``).
    @inline(__always)
    private func isLogSession(_ id: String) -> Bool {
        if let same = sessionShortKey?.matches(id) { return same }
        return sessionUTF8.withUnsafeBytes { SessionID.same(id, utf8: $0) }
    }

    /// Whether `bytes` are exactly the log's session.
    @inline(__always)
    private func isLogSession(bytes: UnsafeRawBufferPointer) -> Bool {
        if let key = sessionShortKey { return key.matches(bytes: bytes) }
        return sessionUTF8.count == bytes.count
            && sessionUTF8.withUnsafeBytes { memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }
    }

    /// Accepts a staged event: its line joins the block, the state advances.
    private func acceptStaged(_ event: Event, seq: Int) throws(LogError) {
        canonical.bytes.withUnsafeBytes { pending.append($0) }
        try accept(event, seq: seq, lineBytes: canonical.bytes.count)
    }

    /// Accepts an event whose line (with its `\n`) is already at the end of
    /// the block: counts it in, and seals the block when it is full.
    @inline(__always)
    private func accept(_ event: Event, seq: Int, lineBytes: Int) throws(LogError) {
        absorb(event, seq: seq, lineBytes: lineBytes)
        if shouldSeal { try seal() }
    }

    /// Counts an event into the block, the log and the state (its line is
    /// already in `pending`, or already on disk).
    @inline(__always)
    private func absorb(_ event: Event, seq: Int, lineBytes: Int) {
        count(seq: seq, t: event.t.milliseconds, lineBytes: lineBytes) { event.session }
        if event.seq == seq {
            chain!.apply(event)
        } else {
            var numbered = event
            numbered.seq = seq
            chain!.apply(numbered)
        }
    }

    /// Counts a line into the block and the log (not yet into the state);
    /// `session` names the log's session when it has none yet.
    @inline(__always)
    private func count(seq: Int, t: Int64, lineBytes: Int, session id: () -> String) {
        if session == nil {
            session = id()
            chain = StateChain(session: session!)
        }
        if block.eventCount == 0 {
            block.firstSeq = seq
            block.firstT = t
            block.minT = t
            block.maxT = t
            if options.maxBlockAgeMilliseconds != nil { block.startedAt = LogFile.monotonicMilliseconds() }
        }
        block.eventCount += 1
        block.rawBytes += lineBytes
        block.lastSeq = seq
        block.lastT = t
        block.minT = min(block.minT, t)
        block.maxT = max(block.maxT, t)
        if let lastT, t < lastT { timeOrdered = false }
        lastT = t
        runningMaxT = max(runningMaxT, t)
        lastSeq = seq
        eventCount += 1
        eventsSinceCheckpoint += 1
    }

    private var shouldSeal: Bool {
        if block.rawBytes >= options.blockTargetBytes { return true }
        if eventsSinceCheckpoint >= options.checkpointInterval { return true }
        if let max = options.maxBlockEvents, block.eventCount >= max { return true }
        if let age = options.maxBlockAgeMilliseconds,
           LogFile.monotonicMilliseconds() - block.startedAt >= Int64(age) { return true }
        return false
    }

    private func afterAppend() throws(LogError) {
        switch options.durability {
        case .everyAppend:
            try makeDurable()
        case .interval(let ms):
            if LogFile.monotonicMilliseconds() - lastSyncAt >= Int64(ms) { try makeDurable() }
        case .everySeal, .onFlush:
            break
        }
    }

    // MARK: Writing

    /// Compresses pending lines as new LZ4 blocks of the open data frame,
    /// writes them, and syncs.
    private func makeDurable() throws(LogError) {
        if pending.count > 0 {
            out.removeAll()
            do {
                if frameOffset == nil {
                    frameOffset = end
                    try encoder.begin(contentSize: nil, into: out)
                }
                try encoder.update(pending.bytes, into: out)
            } catch {
                throw LogError(path: path, kind: .compression(error.description), offset: end)
            }
            try awaitPreamble()
            try file.write(out.bytes, at: end)
            end += Int64(out.count)
            pending.removeAll()
            unsynced = true
        }
        try sync()
    }

    private func sync() throws(LogError) {
        try awaitPreamble()
        if unsynced {
            try file.sync()
            unsynced = false
        }
        lastSyncAt = LogFile.monotonicMilliseconds()
    }

    /// Ends the open block: its state hash and, when K events have passed,
    /// its checkpoint are taken here; the rest of its data frame, its entry
    /// and the checkpoint are written in one write, by the background thread
    /// when there is one (and no data frame is open), else now.
    private func seal() throws(LogError) {
        guard block.eventCount > 0, var sealedChain = chain else { return }
        let (hash, json) = sealedChain.sealBlock()
        chain = sealedChain
        let checkpointDue = eventsSinceCheckpoint >= options.checkpointInterval
        if checkpointDue { eventsSinceCheckpoint = 0 }
        let sealed = SealedBlock(lines: pending, stats: block, runningMaxT: runningMaxT, timeOrdered: timeOrdered,
                                 stateHash: hash, checkpointJSON: checkpointDue ? json : nil)
        block = BlockStats()
        if let sealer, frameOffset == nil {
            pending = sealer.spareBuffer() ?? ByteBuffer(capacity: pending.capacity)
            if let error = sealer.submit(sealed) { throw error }
        } else {
            defer { pending.removeAll() }
            try write(sealed)
        }
    }

    /// Compresses a sealed block's lines (finishing the open data frame, if
    /// any), then writes the frame's rest, the block's entry and its
    /// checkpoint in one write; syncs with `everySeal` unless `syncing` is
    /// `false` (a later block of the same group will).
    fileprivate func write(_ sealed: SealedBlock, syncing: Bool = true) throws(LogError) {
        out.removeAll()
        do {
            if frameOffset == nil { try encoder.begin(contentSize: sealed.lines.count, into: out) }
            try encoder.update(sealed.lines.bytes, into: out, lastOfFrame: true)
            try encoder.end(into: out)
        } catch {
            throw LogError(path: path, kind: .compression(error.description), offset: end, seq: sealed.stats.firstSeq)
        }
        let dataOffset = frameOffset ?? end
        try finishBlock(sealed, dataOffset: dataOffset, contentChecksum: out.bytes.loadLE32(out.count - 4),
                        syncing: syncing)
    }

    /// Writes `out` (the end of the block's data frame) followed by the
    /// block's entry and, when due, a checkpoint — in one write.
    private func finishBlock(
        _ sealed: SealedBlock, dataOffset: Int64, contentChecksum: UInt32, syncing: Bool = true
    ) throws(LogError) {
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
                throw LogError(path: path, kind: .compression(error.description), offset: end, seq: stats.lastSeq)
            }
            let offset = end + Int64(out.count + records.count)
            let before = records.count
            CheckpointRecord(blockIndex: entry.blockIndex, seq: entry.lastSeq, stateHash: sealed.stateHash, jsonBytes: json.count)
                .appendFrame(compressedJSON: checkpointScratch.bytes, to: &records)
            checkpoint = CheckpointRef(offset: offset, frameLength: records.count - before, seq: entry.lastSeq,
                                       blockIndex: entry.blockIndex, frameIndex: nextFrameIndex + 2)
        }
        out.append(records)
        try writeAtEnd(out.bytes)
        end += Int64(out.count)
        nextFrameIndex += checkpoint == nil ? 2 : 3
        entries.append(entry)
        if let checkpoint { checkpoints.append(checkpoint) }
        if frameOffset != nil { frameOffset = nil }
        unsynced = true
        if syncing && options.durability == .everySeal { try sync() }
    }

    // MARK: Opening

    private func open() throws(LogError) {
        let size = try file.size()
        if size == 0 { return try writePreamble() }
        let window = FileWindow(file: file, fileSize: size)
        let (index, _) = try LogIndex.load(file: file, window: window)
        guard index.header != nil else {
            // Cut short inside its preamble: it holds no event yet.
            try file.truncate(to: 0)
            return try writePreamble()
        }
        if index.stopIsCorruption, let stop = index.stop {
            throw LogError(path: path, kind: .corrupt("\(stop.reason); run 'navlog repair' first"),
                           offset: stop.offset, frame: stop.frame, seq: stop.seq)
        }
        try resume(from: index, fileSize: size)
    }

    /// Waits, when the preamble's sync was handed over, until it is done:
    /// nothing else reaches the file before the preamble is durable. Then
    /// writes what was held meanwhile.
    @inline(__always)
    private func awaitPreamble() throws(LogError) {
        if let ticket = preambleSync {
            try ticket.wait()
            preambleSync = nil
        }
        if let held { try writeHeld(held) }
    }

    /// Writes `bytes` at `end` (the caller then moves `end` past them) —
    /// or, while the preamble's sync is under way, keeps them after what is
    /// held already: a thread that seals a new log's first block goes on
    /// without waiting for the sync, and the bytes reach the file, in
    /// order, at the next write or sync after it.
    @inline(__always)
    private func writeAtEnd(_ bytes: UnsafeRawBufferPointer) throws(LogError) {
        if let ticket = preambleSync, !ticket.isDone {
            let buffer = held ?? ByteBuffer(capacity: bytes.count)
            buffer.append(bytes)
            held = buffer
            return
        }
        try awaitPreamble()
        try file.write(bytes, at: end)
    }

    @inline(never)
    private func writeHeld(_ buffer: ByteBuffer) throws(LogError) {
        try file.write(buffer.bytes, at: end - Int64(buffer.count))
        held = nil
    }

    private func writePreamble() throws(LogError) {
        var bytes = NavLogFormat.emptyFrame
        FileHeader(blockTargetBytes: UInt32(options.blockTargetBytes),
                   checkpointInterval: UInt32(min(options.checkpointInterval, Int(UInt32.max))),
                   lz4BlockSizeID: options.frameSettings.blockSize.rawValue)
            .appendFrame(to: &bytes)
        try file.write(bytes, at: 0)
        if let preambleSyncer {
            preambleSync = preambleSyncer.submit(path)
        } else {
            try file.sync()
        }
        if options.syncsDirectoryOnCreate { try LogFile.syncDirectory(containing: path) }
        end = Int64(bytes.count)
        nextFrameIndex = 2
    }

    /// Continues an existing log: rebuilds the running state from the last
    /// checkpoint, cuts what follows the body (keeping torn bytes in a side
    /// file), and finishes an unfinished data frame in place.
    private func resume(from index: LogIndex, fileSize: Int64) throws(LogError) {
        entries = index.entries
        checkpoints = index.checkpoints
        eventCount = index.eventCount
        lastSeq = index.lastSeq
        nextFrameIndex = index.nextFrameIndex
        if let last = entries.last {
            runningMaxT = last.runningMaxT
            timeOrdered = last.timeOrdered
            lastT = last.lastT
        }
        let reader = try BlockReader(file: file)
        let decoder: LZ4FrameDecoder
        do { decoder = try LZ4FrameDecoder() } catch { throw LogError(path: path, kind: .compression(error.description)) }
        // The state after the last committed block.
        var firstBlock = 0
        if let ref = checkpoints.last {
            let (state, hash) = try CheckpointRecord.loadState(from: file, ref: ref, decoder: decoder,
                                                               scratch: ByteBuffer())
            chain = StateChain(state: state, hash: hash)
            session = state.session
            firstBlock = ref.blockIndex + 1
        }
        eventsSinceCheckpoint = entries[firstBlock...].reduce(0) { $0 + $1.eventCount }
        for entry in entries[firstBlock...] {
            try reader.read(entry)
            try forEachLine(in: reader.content.bytes) { (line, _) throws(LogError) in
                let event = try reader.parse(line, of: entry)
                if chain == nil {
                    chain = StateChain(session: event.session)
                    session = event.session
                }
                chain!.apply(event)
                return true
            }
        }
        // The chain continues from the hash the file records: if this build's
        // projection disagrees with the one that wrote the log, `navlog
        // verify` reports the block where it does, and appending goes on.
        if let chain, let last = entries.last {
            self.chain = StateChain(state: chain.state, hash: last.stateHash)
        }
        // An unfinished data frame is finished in place: what follows its
        // last LZ4 block that ends a line is cut (into a side file), then its
        // end mark, content checksum and entry are appended. At every step a
        // crash leaves a file that opens with every acknowledged event.
        var keepEnd = index.bodyEnd
        var finish: (open: OpenFrame, salvage: BlockReader.OpenFrameSalvage, events: [Event], content: [UInt8])?
        if let open = index.openFrame {
            let salvage = try reader.readOpen(open)
            var events: [Event] = []
            var parser = EventLineParser()
            var valid = salvage.frameBytes > 0
            try forEachLine(in: reader.content.bytes) { (line, _) throws(LogError) in
                guard let event = try? parser.parse(line), event.seq > (events.last?.seq ?? lastSeq),
                      session.map({ SessionID.same(event.session, $0) }) ?? true else {
                    valid = false
                    return false
                }
                events.append(event)
                return true
            }
            if valid && !events.isEmpty {
                keepEnd = open.offset + Int64(salvage.frameBytes)
                finish = (open, salvage, events, [UInt8](reader.content.bytes))
            }
        }
        end = keepEnd
        if fileSize > end {
            let onlyFooter = index.footerOffset == end && index.openFrame == nil && index.stop == nil
            var side: String?
            if !onlyFooter { side = try TornTail.preserve(file, from: end, to: fileSize) }
            try file.truncate(to: end)
            try file.sync()
            if !onlyFooter {
                recovery = LogRecovery(cutOffset: end, cutBytes: fileSize - end, sideFile: side,
                                       recoveredEvents: finish?.events.count ?? 0,
                                       reason: index.stop?.reason ?? "unfinished data frame at byte \(index.bodyEnd)")
            }
        }
        if let finish {
            for event in finish.events {
                absorb(event, seq: event.seq, lineBytes: 0)
            }
            block.rawBytes = finish.content.count
            out.removeAll()
            if !finish.salvage.finished {
                var tail: [UInt8] = []
                tail.appendLE(UInt32(0))                              // end mark
                tail.appendLE(XXHash32.hash(finish.content))          // content checksum
                out.append(tail)
            }
            let checksum = XXHash32.hash(finish.content)
            guard var sealedChain = chain else { return }
            let (hash, json) = sealedChain.sealBlock()
            chain = sealedChain
            let checkpointDue = eventsSinceCheckpoint >= options.checkpointInterval
            if checkpointDue { eventsSinceCheckpoint = 0 }
            let sealed = SealedBlock(lines: ByteBuffer(capacity: 16), stats: block, runningMaxT: runningMaxT,
                                     timeOrdered: timeOrdered, stateHash: hash, checkpointJSON: checkpointDue ? json : nil)
            block = BlockStats()
            try finishBlock(sealed, dataOffset: finish.open.offset, contentChecksum: checksum)
            try sync()
            if recovery == nil {
                recovery = LogRecovery(cutOffset: end, cutBytes: 0, sideFile: nil, recoveredEvents: finish.events.count,
                                       reason: "unfinished data frame at byte \(finish.open.offset) finished in place")
            }
        }
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

/// The writer, for its background thread, which the writer stops (and
/// joins) before it goes away.
private struct UnownedWriter: @unchecked Sendable {
    unowned(unsafe) let writer: LogWriter
    init(_ writer: LogWriter) { self.writer = writer }
}
