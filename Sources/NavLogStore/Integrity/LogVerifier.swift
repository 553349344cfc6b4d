import NavLogCore

/// The result of ``LogVerifier/verify(path:)``: every problem found, each with
/// its byte offset, frame index and seq, and what the file holds.
public struct VerifyReport: Sendable {
    /// The file.
    public var path: String
    /// Everything wrong, in file order. Empty means intact.
    public var problems: [LogError] = []
    /// Problems beyond the first 10,000, counted but not listed.
    public var problemsNotListed = 0
    /// Things worth knowing that are not damage (no footer: not closed).
    public var notes: [String] = []
    /// Committed blocks whose data frame and entry verified.
    public var blocks = 0
    /// Checkpoints that verified.
    public var checkpoints = 0
    /// Events in verified blocks.
    public var events = 0
    /// Seq range of those events.
    public var firstSeq: Int?
    public var lastSeq: Int?
    /// Whether the file ends with a valid footer and trailer.
    public var hasFooter = false
    /// Events recoverable from an unfinished data frame at the end.
    public var recoverableTailEvents = 0
    /// End of the last block (or checkpoint) before the first problem: the
    /// file cut there is intact.
    public var validPrefixEnd: Int64 = 0

    /// Whether no problem was found.
    public var isIntact: Bool { problems.isEmpty }
}

/// Checks every byte of a `.navlog` file that a checksum or a structural
/// rule covers (schemas/navlog-format.md §9): LZ4 header, block and content
/// checksums; record checksums; entries against their data frames; seq order
/// and one session; every line a valid event; checkpoints and the footer
/// against the walk; and the state chain, recomputed by replaying the events.
///
/// Unlike a reader, the verifier does not stop at the first problem: after a
/// damaged frame whose extent is known it goes on with the next, and after
/// bytes that are not a frame it resynchronises on the next frame magic.
public enum LogVerifier {
    /// Verifies the file at `path`.
    ///
    /// - Throws: only I/O trouble; damage is reported in the result.
    /// - Complexity: O(file size): every data frame is decompressed.
    public static func verify(path: String) throws(LogError) -> VerifyReport {
        let file = try LogFile(path: path, mode: .read)
        var run = try VerifyRun(file: file)
        try run.verify()
        return run.report
    }
}

/// One verification pass.
private struct VerifyRun {
    let file: LogFile
    let path: String
    let size: Int64
    let window: FileWindow
    let decoder: LZ4FrameDecoder
    let content = ByteBuffer(capacity: 256 << 10)
    let scratch = ByteBuffer(capacity: 64 << 10)
    var parser = EventLineParser()
    var report: VerifyReport

    // Walk state.
    var offset: Int64 = 0
    var frame = 0
    var session: String?
    var lastSeq = 0
    var lastT: Int64?
    var runningMaxT = Int64.min
    var timeOrdered = true
    var chain: StateChain?
    var chainValid = true
    var entries: [BlockEntry] = []
    var refs: [CheckpointRef] = []
    /// The data frame waiting for its entry.
    var pending: PendingBlock?
    /// Whether the unit just before is a block entry that verified (a checkpoint may follow).
    var lastEntryOK = false
    var footerSeen: (offset: Int64, frame: Int, footer: Footer?)?

    struct PendingBlock {
        var offset: Int64
        var length: Int
        var frame: Int
        var extent: LZ4FrameExtent
        /// Facts from its content, when it decoded.
        var stats: BlockStats?
        var contentChecksum: UInt32?
        var checkpointJSON: [UInt8]?
        var hash: UInt64?
    }

    init(file: LogFile) throws(LogError) {
        self.file = file
        path = file.path
        size = try file.size()
        window = FileWindow(file: file, fileSize: size)
        do { decoder = try LZ4FrameDecoder() } catch { throw LogError(path: file.path, kind: .compression(error.description)) }
        report = VerifyReport(path: file.path)
    }

    /// Reports a problem (the first 10,000; after that only their count).
    mutating func problem(_ why: String, at offset: Int64, frame: Int?, seq: Int? = nil) {
        if report.problems.count < Self.maxProblems {
            report.problems.append(LogError.corrupt(path, why, offset: offset, frame: frame, seq: seq))
        } else {
            report.problemsNotListed += 1
        }
    }

    static let maxProblems = 10_000

    mutating func verify() throws(LogError) {
        try verifyPreamble()
        if report.problems.isEmpty { report.validPrefixEnd = Int64(min(size, Int64(NavLogFormat.preambleBytes))) }
        offset = Int64(NavLogFormat.preambleBytes)
        frame = 2
        while offset < size {
            switch try window.probe(at: offset) {
            case .endOfFile:
                break
            case .truncated(let why):
                closePending()
                problem("torn tail: \(why)", at: offset, frame: frame, seq: lastSeq + 1)
                offset = size
            case .invalid(let why):
                closePending()
                problem(why, at: offset, frame: frame, seq: lastSeq + 1)
                let next = try resync(after: offset)
                if next < size { problem("\(next - offset) bytes skipped to the next frame", at: offset, frame: frame) }
                offset = next
                frame += 1
            case .lz4(let extent):
                closePending()
                try verifyDataFrame(extent)
            case .skippable(let magic, let payloadSize):
                try verifySkippable(magic: magic, payloadSize: payloadSize)
            }
        }
        closePending()
        finish()
    }

    // MARK: Preamble

    mutating func verifyPreamble() throws(LogError) {
        let bytes = try file.read(count: NavLogFormat.preambleBytes, at: 0)
        if let difference = bytes.withUnsafeBytes({ Preamble.difference($0) }) {
            problem(difference.reason, at: Int64(difference.offset), frame: difference.frame)
        }
        guard bytes.count == NavLogFormat.preambleBytes else {
            problem("file ends inside its preamble (\(bytes.count) of \(NavLogFormat.preambleBytes) bytes)",
                    at: Int64(bytes.count), frame: bytes.count < NavLogFormat.emptyFrame.count ? 0 : 1)
            return
        }
        let header = Int64(NavLogFormat.emptyFrame.count)
        bytes.withUnsafeBytes { all in
            let payload = UnsafeRawBufferPointer(rebasing: all[(NavLogFormat.emptyFrame.count + 8)...])
            switch SkippableFrame.checkRecord(payload) {
            case .failure(let p): problem(Preamble.checksumReason(p), at: header, frame: 1)
            case .success(let tag):
                if tag != NavLogFormat.Tag.header.rawValue { problem("header: tag is not NLHD", at: header, frame: 1) }
                if let h = FileHeader(payload: payload), h.majorVersion != NavLogFormat.majorVersion {
                    problem("format version \(h.majorVersion).\(h.minorVersion) is not supported", at: header, frame: 1)
                }
            }
        }
    }

    // MARK: Data frames

    mutating func verifyDataFrame(_ extent: LZ4FrameExtent) throws(LogError) {
        let start = offset
        guard let length = extent.length else {
            // Unfinished: count what a reader would recover, then stop.
            scratch.removeAll()
            try file.read(count: extent.completeLength, at: start, appendingTo: scratch)
            content.removeAll()
            let progress = decoder.decodePrefix(scratch.bytes, maxContentBytes: NavLogFormat.maxBlockContentBytes, into: content)
            var recovered = 0
            try forEachLine(in: content.bytes) { (line, start) throws(LogError) in
                guard start + line.count < content.count else { return false }   // only whole lines
                guard let e = try? EventParser.parse(line), e.seq > lastSeq + recovered else { return false }
                recovered += 1
                return true
            }
            report.recoverableTailEvents = recovered
            let why = progress.error.map { ": \($0)" } ?? ""
            problem("unfinished data frame (a writer is active, or it crashed)\(why); \(recovered) events recoverable, \(size - start) bytes",
                    at: start, frame: frame, seq: lastSeq + 1)
            offset = size
            return
        }
        var block = PendingBlock(offset: start, length: length, frame: frame, extent: extent)
        scratch.removeAll()
        try file.read(count: length, at: start, appendingTo: scratch)
        content.removeAll()
        do {
            _ = try decoder.decodeFrame(scratch.bytes, maxContentBytes: NavLogFormat.maxBlockContentBytes, into: content)
            block.contentChecksum = extent.contentChecksum
            if !extent.descriptor.contentChecksum { problem("data frame has no content checksum", at: start, frame: frame) }
            if let claimed = extent.descriptor.contentSize, claimed != UInt64(content.count) {
                problem("data frame header claims \(claimed) bytes of content, it holds \(content.count)", at: start, frame: frame)
            }
            block.stats = try verifyLines(frameOffset: start)
        } catch let error as LZ4FrameError {
            problem("data frame: \(error)", at: start, frame: frame, seq: lastSeq + 1)
            chainValid = false
        } catch let error as LogError {
            throw error
        } catch {
            problem("data frame: \(error)", at: start, frame: frame, seq: lastSeq + 1)
        }
        if block.stats != nil, chainValid, let chain {
            var sealed = chain
            let (hash, json) = sealed.sealBlock()
            self.chain = sealed
            block.hash = hash
            block.checkpointJSON = json
        }
        pending = block
        lastEntryOK = false
        offset = start + Int64(length)
        frame += 1
    }

    /// Checks each line of `content`; returns the block's facts, or `nil`
    /// when a line is bad (each bad line is reported).
    mutating func verifyLines(frameOffset: Int64) throws(LogError) -> BlockStats? {
        var stats = BlockStats()
        var ok = true
        let bytes = content.bytes
        if bytes.count == 0 || bytes[bytes.count - 1] != 0x0A {
            problem("data frame content does not end with a newline", at: frameOffset, frame: frame, seq: lastSeq + 1)
            ok = false
        }
        var lineNumber = 0
        var problemsHere: [(String, Int?)] = []
        try forEachLine(in: bytes) { (line, _) throws(LogError) in
            lineNumber += 1
            let event: Event
            do { event = try parser.parse(line) } catch {
                problemsHere.append(("line \(lineNumber) of the block does not parse: \(error)", nil))
                ok = false
                return problemsHere.count < 5
            }
            if let session, !SessionID.same(event.session, session) {
                problemsHere.append(("session \"\(event.session)\" differs from the log's \"\(session)\"", event.seq))
                ok = false
            }
            if event.seq <= lastSeq {
                problemsHere.append(("seq \(event.seq) does not increase (previous \(lastSeq))", event.seq))
                ok = false
            }
            if session == nil {
                session = event.session
                chain = StateChain(session: event.session)
            }
            let t = event.t.milliseconds
            if stats.eventCount == 0 {
                stats.firstSeq = event.seq
                stats.firstT = t
                stats.minT = t
                stats.maxT = t
            }
            stats.eventCount += 1
            stats.lastSeq = event.seq
            stats.lastT = t
            stats.minT = min(stats.minT, t)
            stats.maxT = max(stats.maxT, t)
            if let lastT, t < lastT { timeOrdered = false }
            lastT = t
            runningMaxT = max(runningMaxT, t)
            lastSeq = max(lastSeq, event.seq)
            chain?.apply(event)
            return true
        }
        for (why, seq) in problemsHere { problem(why, at: frameOffset, frame: frame, seq: seq) }
        stats.rawBytes = bytes.count
        if !ok { chainValid = false }
        return ok ? stats : nil
    }

    /// A data frame not followed by its entry is a problem.
    mutating func closePending() {
        if let block = pending {
            problem("data frame is not followed by its block entry", at: block.offset + Int64(block.length),
                    frame: block.frame + 1, seq: block.stats?.firstSeq)
            pending = nil
        }
    }

    // MARK: Skippable frames

    mutating func verifySkippable(magic: UInt32, payloadSize: Int) throws(LogError) {
        let start = offset
        let end = start + 8 + Int64(payloadSize)
        defer {
            offset = end
            frame += 1
        }
        guard magic == NavLogFormat.navlogSkippableMagic else {
            closePending()
            problem("skippable frame with foreign magic \(hex(magic)) (navlog writes only \(hex(NavLogFormat.navlogSkippableMagic)))",
                    at: start, frame: frame)
            lastEntryOK = false
            return
        }
        let cap = NavLogFormat.maxFooterBytes
        guard payloadSize >= 8, payloadSize <= cap else {
            closePending()
            problem("navlog record of \(payloadSize) bytes is out of range", at: start, frame: frame)
            return
        }
        scratch.removeAll()
        try file.read(count: payloadSize, at: start + 8, appendingTo: scratch)
        let payload = scratch.bytes
        let tag: UInt32
        switch SkippableFrame.checkRecord(payload) {
        case .failure(let p):
            if pending != nil && payloadSize == NavLogFormat.blockEntryPayloadBytes {
                problem("block entry: \(p)", at: start, frame: frame, seq: pending?.stats?.firstSeq)
                pending = nil
            } else {
                closePending()
                problem("record: \(p)", at: start, frame: frame)
            }
            lastEntryOK = false
            return
        case .success(let t): tag = t
        }
        switch NavLogFormat.Tag(rawValue: tag) {
        case .block:
            verifyEntry(payload, at: start)
        case .checkpoint:
            closePending()
            try verifyCheckpoint(payload, at: start, frameLength: payloadSize + 8)
            lastEntryOK = false
        case .footer:
            closePending()
            footerSeen = (start, frame, Footer(payload: payload))
            if footerSeen?.footer == nil { problem("footer fields do not add up", at: start, frame: frame) }
            lastEntryOK = false
        case .trailer:
            closePending()
            let pointed = Int64(payload.loadLE64(4))
            if let seen = footerSeen, seen.offset == pointed, end == size {
                if let footer = seen.footer { compareFooter(footer, at: seen.offset, frame: seen.frame) }
                report.hasFooter = true
            } else {
                problem("trailer does not point at a footer right before it, or is not at the end of the file",
                        at: start, frame: frame)
            }
            footerSeen = nil
        case .header:
            closePending()
            problem("second header record", at: start, frame: frame)
        case nil:
            closePending()
            report.notes.append("byte \(start), frame \(frame): record with unknown tag \(hex(tag)) passed over (newer minor version?)")
            lastEntryOK = false
        }
    }

    mutating func verifyEntry(_ payload: UnsafeRawBufferPointer, at start: Int64) {
        lastEntryOK = false
        guard let block = pending else {
            problem("block entry without a data frame before it", at: start, frame: frame)
            return
        }
        pending = nil
        guard let e = BlockEntry(payload: payload) else {
            problem("block entry fields out of range", at: start, frame: frame, seq: block.stats?.firstSeq)
            return
        }
        var wrong: [String] = []
        func check<T: Equatable>(_ name: String, _ stored: T, _ actual: T?) {
            if let actual, stored != actual { wrong.append("\(name) \(stored), data says \(actual)") }
        }
        check("data offset", e.dataOffset, block.offset)
        check("data length", e.dataLength, block.length)
        check("block index", e.blockIndex, entries.count)
        check("frame index", e.dataFrameIndex, block.frame)
        check("content checksum", e.contentChecksum, block.contentChecksum)
        if let s = block.stats {
            check("content size", e.contentSize, s.rawBytes)
            check("event count", e.eventCount, s.eventCount)
            check("first seq", e.firstSeq, s.firstSeq)
            check("last seq", e.lastSeq, s.lastSeq)
            check("first t", e.firstT, s.firstT)
            check("last t", e.lastT, s.lastT)
            check("min t", e.minT, s.minT)
            check("max t", e.maxT, s.maxT)
            check("running max t", e.runningMaxT, runningMaxT)
            check("time-ordered flag", e.timeOrdered, timeOrdered)
            check("state chain", e.stateHash, block.hash)
        }
        guard wrong.isEmpty else {
            problem("block entry: " + wrong.joined(separator: "; "), at: start, frame: frame, seq: e.firstSeq)
            return
        }
        guard block.stats != nil else { return }
        entries.append(e)
        report.blocks += 1
        report.events += e.eventCount
        if report.firstSeq == nil { report.firstSeq = e.firstSeq }
        report.lastSeq = e.lastSeq
        lastEntryOK = true
        lastCheckpointJSON = block.checkpointJSON
        if report.problems.isEmpty { report.validPrefixEnd = start + Int64(8 + NavLogFormat.blockEntryPayloadBytes) }
    }

    var lastCheckpointJSON: [UInt8]?

    mutating func verifyCheckpoint(_ payload: UnsafeRawBufferPointer, at start: Int64, frameLength: Int) throws(LogError) {
        guard let record = CheckpointRecord(payload: payload) else {
            problem("checkpoint fields out of range", at: start, frame: frame)
            return
        }
        guard lastEntryOK, let last = entries.last else {
            problem("checkpoint does not follow a verified block entry", at: start, frame: frame, seq: record.seq)
            return
        }
        if record.blockIndex != last.blockIndex || record.seq != last.lastSeq || record.stateHash != last.stateHash {
            problem("checkpoint (block \(record.blockIndex), seq \(record.seq)) does not match the block before it (block \(last.blockIndex), seq \(last.lastSeq))",
                    at: start, frame: frame, seq: record.seq)
            return
        }
        let embedded = UnsafeRawBufferPointer(rebasing: payload[NavLogFormat.checkpointFixedBytes..<(payload.count - 4)])
        let json = ByteBuffer(capacity: 4096)
        do {
            let used = try decoder.decodeFrame(embedded, maxContentBytes: record.jsonBytes, into: json)
            if used != embedded.count { problem("checkpoint: bytes after the state frame", at: start, frame: frame, seq: record.seq) }
        } catch {
            problem("checkpoint state frame: \(error)", at: start, frame: frame, seq: record.seq)
            return
        }
        if json.count != record.jsonBytes {
            problem("checkpoint state is \(json.count) bytes, record says \(record.jsonBytes)", at: start, frame: frame, seq: record.seq)
            return
        }
        if StateChain.decodeCheckpoint(json.array) == nil {
            problem("checkpoint state does not decode", at: start, frame: frame, seq: record.seq)
            return
        }
        if let expected = lastCheckpointJSON, expected != json.array {
            problem("checkpoint state differs from the state replayed from the events", at: start, frame: frame, seq: record.seq)
            return
        }
        refs.append(CheckpointRef(offset: start, frameLength: frameLength, seq: record.seq,
                                  blockIndex: record.blockIndex, frameIndex: frame))
        report.checkpoints += 1
        if report.problems.isEmpty { report.validPrefixEnd = start + Int64(frameLength) }
    }

    mutating func compareFooter(_ footer: Footer, at start: Int64, frame footerFrame: Int) {
        var wrong: [String] = []
        if footer.footerOffset != start { wrong.append("footer offset \(footer.footerOffset), it is at \(start)") }
        if footer.frameIndex != footerFrame { wrong.append("frame index \(footer.frameIndex), it is \(footerFrame)") }
        if footer.entries != entries { wrong.append("its \(footer.entries.count) block entries differ from the \(entries.count) in the file") }
        if footer.checkpoints != refs { wrong.append("its \(footer.checkpoints.count) checkpoints differ from the \(refs.count) in the file") }
        if footer.eventCount != report.events { wrong.append("event count \(footer.eventCount), blocks hold \(report.events)") }
        if !wrong.isEmpty { problem("footer: " + wrong.joined(separator: "; "), at: start, frame: footerFrame) }
    }

    mutating func finish() {
        if footerSeen != nil {
            problem("footer is not followed by its trailer at the end of the file", at: footerSeen!.offset, frame: footerSeen!.frame)
        }
        if !report.hasFooter { report.notes.append("no footer: the log was not closed (or is being written)") }
    }

    // MARK: Resynchronising

    /// The offset of the next plausible frame start after damaged bytes at
    /// `from` (an LZ4 frame whose header checksum holds, or a navlog record
    /// that fits in the file), or the file size.
    func resync(after from: Int64) throws(LogError) -> Int64 {
        var at = from + 1
        let chunk = 1 << 20
        while at + 4 <= size {
            let bytes = try file.read(count: Int(min(Int64(chunk + 19), size - at)), at: at)
            let n = bytes.count
            var i = 0
            while i + 4 <= n {
                if bytes[i + 3] == 0x18 && bytes[i + 2] == 0x4D {
                    let candidate = at + Int64(i)
                    if bytes[i] == 0x04 && bytes[i + 1] == 0x22 {
                        if case .lz4 = try window.probe(at: candidate) { return candidate }
                    } else if bytes[i] == 0x5E && bytes[i + 1] == 0x2A {
                        if case .skippable = try window.probe(at: candidate) { return candidate }
                    }
                }
                i += 1
                if i >= chunk { break }
            }
            at += Int64(min(i, chunk))
        }
        return size
    }
}
