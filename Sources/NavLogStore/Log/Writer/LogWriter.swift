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
/// ``FileError/Kind/locked``. Readers are never blocked.
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
    @exclusivity(unchecked) public internal(set) var lastSeq: Int = 0
    /// The session of the log (`nil` until the first event).
    @exclusivity(unchecked) public internal(set) var session: String? {
        didSet {
            sessionUTF8 = session.map { Array($0.utf8) } ?? []
            sessionShortKey = sessionUTF8.withUnsafeBytes { ShortSessionKey($0) }
        }
    }
    /// The bytes of `session`, which an event's session must equal exactly.
    @exclusivity(unchecked) private(set) var sessionUTF8: [UInt8] = []
    /// Those bytes as two words, when there are 1 to 16 of them (the usual
    /// case): an event's session is then compared without a call.
    @exclusivity(unchecked) private(set) var sessionShortKey: ShortSessionKey?
    /// Events in the log, including those not yet durable.
    @exclusivity(unchecked) public internal(set) var eventCount: Int = 0
    /// What opening had to repair, if anything.
    public internal(set) var recovery: LogRecovery?

    /// The file, its end and the index of its blocks: what compresses and
    /// writes sealed blocks. The background thread, when there is one, owns
    /// it too and reaches nothing else of the writer.
    let blocks: BlockWriter
    /// The file.
    var file: OpenFile { blocks.file }
    @exclusivity(unchecked) var closed = false
    /// The write or sync failure that stopped this writer.
    @exclusivity(unchecked) var failure: FileError?
    /// Raw lines not yet compressed.
    @exclusivity(unchecked) private var pending: ByteBuffer
    /// The thread that compresses and writes sealed blocks, with
    /// ``LogWriterOptions/sealsInBackground``. While it has blocks, it alone
    /// uses ``blocks``; everything else that uses them drains it first.
    private var sealer: BackgroundSealer?
    @exclusivity(unchecked) var canonical = CanonicalWriter(capacity: 1024)

    // The block being filled.
    @exclusivity(unchecked) var block = BlockStats()
    // Running facts about the whole log.
    @exclusivity(unchecked) var runningMaxT = Int64.min
    @exclusivity(unchecked) var timeOrdered = true
    @exclusivity(unchecked) var lastT: Int64?
    @exclusivity(unchecked) var eventsSinceCheckpoint = 0
    @exclusivity(unchecked) var chain: StateChain?

    /// Opens (or creates) the log at `path` for appending and takes its lock.
    ///
    /// - Throws: ``FileError`` — `.locked` when another writer has it,
    ///   `.notANavlog` / `.unsupportedVersion` for a foreign file, `.corrupt`
    ///   for damage that is not a torn tail, `.io` for system errors.
    public convenience init(path: String, options: LogWriterOptions = LogWriterOptions()) throws(FileError) {
        try self.init(path: path, options: options, sealerTurnstile: nil)
    }

    /// Opens (or creates) the log at `path`. A test may hold the background
    /// thread at its passes (``BackgroundSealer``) with `sealerTurnstile`.
    convenience init(path: String, options: LogWriterOptions, sealerTurnstile: ThreadTurnstile?) throws(FileError) {
        let file = try OpenFile(path: path, mode: .readWrite)
        try file.lockExclusive()
        try self.init(lockedFile: file, options: options, sealerTurnstile: sealerTurnstile)
    }

    /// Continues a file this process already holds the lock of (repair).
    init(lockedFile file: OpenFile, options: LogWriterOptions, sealerTurnstile: ThreadTurnstile? = nil) throws(FileError) {
        self.path = file.path
        self.options = options
        // Sized so that a block, the line that fills it and its frame fit
        // without growing (a copy of the whole block, and fresh pages).
        let blockBytes = Self.pendingCapacity(options)
        pending = ByteBuffer(capacity: blockBytes)
        let out = ByteBuffer(capacity: blockBytes + Self.outRoom)
        let encoder: LZ4FrameEncoder
        do { encoder = try LZ4FrameEncoder(settings: options.frameSettings) } catch {
            throw FileError(path: file.path, kind: .compression(error))
        }
        blocks = BlockWriter(file: file, options: options, encoder: encoder, out: out)
        try open()
        blocks.lastSyncAt = OpenFile.monotonicMilliseconds()
        if options.sealsInBackground && (options.durability == .everySeal || options.durability == .onFlush) {
            // The thread gets what it writes with, never the writer: the
            // writer's last reference cannot go on that thread.
            sealer = BackgroundSealer(turnstile: sealerTurnstile) { [blocks] block, endsGroup throws(FileError) in
                try blocks.write(block, syncing: endsGroup)
            }
        }
    }

    deinit {
        _ = sealer?.stop()
        blocks.file.close()
    }

    // MARK: Appending

    /// Validates and appends one event; a `seq` of 0 is assigned
    /// (the last seq + 1). Returns the event's seq.
    ///
    /// The event is refused, and nothing of it written, when its session is
    /// not the log's, its seq does not increase, its `t` is outside years
    /// 0000–9999, or its canonical line is over ``EventParser/maxLineBytes``.
    @discardableResult
    public func append(_ event: Event) throws(FileError) -> Int {
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
            try failing { () throws(FileError) in
                try acceptStaged(event, seq: seq)
                try afterAppend()
            }
            return seq
        }
        guard length <= EventParser.maxLineBytes else { throw lineTooLong(length, seq: seq) }
        (pending.base + pending.count + length).storeBytes(of: 0x0A, as: UInt8.self)
        pending.count += length + 1
        try failing { () throws(FileError) in
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
    public func append(contentsOf events: [Event]) throws(FileError) -> ClosedRange<Int>? {
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
        try failing { () throws(FileError) in
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

    /// Appends `event` with `line` (without `\n`) as its stored line, which
    /// the caller vouches is the event's canonical line with its own seq;
    /// the same checks as ``append(_:)`` apply to the event. Only the tests
    /// call it, to write a log whose lines disagree with its index (a faulty
    /// writer) and check that every reader calls that damage.
    @discardableResult
    func append(_ event: Event, canonicalLine line: UnsafeRawBufferPointer) throws(FileError) -> Int {
        precondition(event.seq != 0, "a canonical line carries its seq")
        let seq = try check(event)
        guard line.count <= EventParser.maxLineBytes else { throw lineTooLong(line.count, seq: seq) }
        try failing { () throws(FileError) in
            pending.appendLine(line)
            try accept(event, seq: seq, lineBytes: line.count + 1)
            try afterAppend()
        }
        return seq
    }

    /// Parses one NDJSON line (``EventParser``), then appends it.
    @discardableResult
    public func append(line: [UInt8]) throws(FileError) -> Int {
        let event: Event
        do { event = try EventParser.parse(line) } catch {
            throw FileError(path: path, kind: .rejected(.line(error)), seq: lastSeq + 1)
        }
        return try append(event)
    }

    /// Makes every appended event durable: on return they survive a crash.
    public func flush() throws(FileError) {
        guard !closed else { throw FileError(path: path, kind: .closed) }
        if let failure { throw failure }
        try failing { () throws(FileError) in
            try drainSealer()
            try makeDurable()
        }
    }

    /// Waits until the background thread has written every sealed block;
    /// throws the failure of one, if any.
    private func drainSealer() throws(FileError) {
        if let error = sealer?.drain() { throw error }
    }

    /// Runs a step that writes; a failure stops the writer for good.
    private func failing(_ step: () throws(FileError) -> Void) throws(FileError) {
        do { try step() } catch {
            failure = error
            throw error
        }
    }

    /// Seals the open block, writes the footer and trailer, syncs, and
    /// releases the lock. The writer cannot be used afterwards.
    public func close() throws(FileError) {
        guard !closed else { return }
        if let failure { throw failure }
        do { try closeFile() } catch {
            failure = error
            throw error
        }
    }

    private func closeFile() throws(FileError) {
        try seal()
        try drainSealer()
        if let sealer {
            _ = sealer.stop()
            self.sealer = nil
        }
        try blocks.writeFooter(eventCount: eventCount)
        try blocks.sync()
        closed = true
        blocks.file.close()
    }

    /// Accepts a staged event: its line joins the block, the state advances.
    private func acceptStaged(_ event: Event, seq: Int) throws(FileError) {
        canonical.bytes.withUnsafeBytes { pending.append($0) }
        try accept(event, seq: seq, lineBytes: canonical.bytes.count)
    }

    /// Accepts an event whose line (with its `\n`) is already at the end of
    /// the block: counts it in, and seals the block when it is full.
    @inline(__always)
    private func accept(_ event: Event, seq: Int, lineBytes: Int) throws(FileError) {
        absorb(event, seq: seq, lineBytes: lineBytes)
        if shouldSeal { try seal() }
    }

    /// Counts an event into the block, the log and the state (its line is
    /// already in `pending`, or already on disk).
    @inline(__always)
    func absorb(_ event: Event, seq: Int, lineBytes: Int) {
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
        if block.count(seq: seq, t: t), options.maxBlockAgeMilliseconds != nil {
            block.startedAt = OpenFile.monotonicMilliseconds()
        }
        block.rawBytes += lineBytes
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
           OpenFile.monotonicMilliseconds() - block.startedAt >= Int64(age) { return true }
        return false
    }

    private func afterAppend() throws(FileError) {
        switch options.durability {
        case .everyAppend:
            try makeDurable()
        case .interval(let ms):
            if OpenFile.monotonicMilliseconds() - blocks.lastSyncAt >= Int64(ms) { try makeDurable() }
        case .everySeal, .onFlush:
            break
        }
    }

    // MARK: Writing

    /// Compresses pending lines as new LZ4 blocks of the open data frame,
    /// writes them, and syncs.
    private func makeDurable() throws(FileError) {
        if pending.count > 0 {
            try blocks.writeOpenFrame(pending)
            pending.removeAll()
        }
        try blocks.sync()
    }

    /// Ends the open block: its state hash and, when K events have passed,
    /// its checkpoint are taken here; the rest of its data frame, its entry
    /// and the checkpoint are written in one write, by the background thread
    /// when there is one (and no data frame is open), else now.
    private func seal() throws(FileError) {
        guard block.eventCount > 0, var sealedChain = chain else { return }
        let (hash, json) = sealedChain.sealBlock()
        chain = sealedChain
        let checkpointDue = eventsSinceCheckpoint >= options.checkpointInterval
        if checkpointDue { eventsSinceCheckpoint = 0 }
        let sealed = SealedBlock(lines: pending, stats: block, runningMaxT: runningMaxT, timeOrdered: timeOrdered,
                                 stateHash: hash, checkpointJSON: checkpointDue ? json : nil)
        block = BlockStats()
        if let sealer, blocks.frameOffset == nil {
            pending = sealer.spareBuffer() ?? ByteBuffer(capacity: pending.capacity)
            if let error = sealer.submit(sealed) { throw error }
        } else {
            defer { pending.removeAll() }
            try blocks.write(sealed)
        }
    }
}
