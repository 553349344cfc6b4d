import NavLogCore

/// The result of ``LogVerifier/verify(path:)``: every problem found, each with
/// its byte offset, frame index and seq, and what the file holds.
public struct VerifyReport: Sendable {
    /// The file.
    public var path: String
    /// Everything wrong, in file order. Empty means intact.
    public var problems: [Damage<LogFault>] = []
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
    public static func verify(path: String) throws(FileError) -> VerifyReport {
        let file = try OpenFile(path: path, mode: .read)
        var run = try VerifyRun(file: file)
        try run.verify()
        return run.report
    }
}

/// One verification pass: the `.navlog` grammar over the one walk
/// (``FileWindow/walk(from:frame:_:)``) that notes every problem and goes on.
struct VerifyRun: UnitGrammar {
    let file: OpenFile
    let path: String
    let size: Int64
    let window: FileWindow
    let decoder: LZ4FrameDecoder
    let content = ByteBuffer(capacity: 256 << 10)
    let scratch = ByteBuffer(capacity: 64 << 10)
    var parser = EventLineParser()
    var report: VerifyReport

    // Walk state. `offset` and `frame`: the frame met, set by the walk; the
    // checks move them past what they read.
    var offset: Int64 = 0
    var frame = 0
    var session: String?
    var lastSeq = 0
    var lastT: Int64?
    var runningMaxT = Int64.min
    var timeOrdered = true
    var chain: StateChain?
    var chainValid = true
    /// Whether a block's events or entry were lost to damage (a data frame not decoded, bytes
    /// skipped, an entry record damaged or missing). What later entries and checkpoints carry
    /// over from the blocks before them (block index, frame index, running max `t`, time order,
    /// state chain, checkpoint states) is then not compared: that damage is the one problem, and
    /// repair cuts the log there. Each later block is still checked on its own.
    var lostBlocks = false
    /// Where a record whose checksum failed ends by its size field: when no frame starts
    /// there, the size was the damage, and that record is the one problem.
    var brokenRecordEnd: Int64?
    var entries: [BlockEntry] = []
    var refs: [CheckpointRef] = []
    /// The data frame waiting for its entry.
    var pending: PendingBlock?
    /// Whether the unit just before is a block entry that verified (a checkpoint may follow).
    var lastEntryOK = false
    var footerSeen: (offset: Int64, frame: Int, footer: Footer?)?
    /// The state JSON the last verified block's checkpoint must hold.
    var lastCheckpointJSON: [UInt8]?

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

    init(file: OpenFile) throws(FileError) {
        self.file = file
        path = file.path
        size = try file.size()
        window = FileWindow(file: file, fileSize: size)
        do { decoder = try LZ4FrameDecoder() } catch { throw FileError(path: file.path, kind: .compression(error)) }
        report = VerifyReport(path: file.path)
    }

    /// Reports a problem (the first 10,000; after that only their count).
    mutating func problem(_ damage: LogFault, at offset: Int64, frame: Int?, seq: Int? = nil) {
        if report.problems.count < Self.maxProblems {
            report.problems.append(Damage(file: path, offset: offset, frame: frame, seq: seq, kind: damage))
        } else {
            report.problemsNotListed += 1
        }
    }

    static let maxProblems = 10_000

    mutating func verify() throws(FileError) {
        try verifyPreamble()
        if report.problems.isEmpty { report.validPrefixEnd = Int64(min(size, Int64(NavLogFormat.preambleBytes))) }
        let window = window
        try window.walk(from: Int64(NavLogFormat.preambleBytes), frame: 2, &self)
        closePending()
        finish()
    }

    mutating func meet(_ met: FrameMet, at offset: Int64, frame: Int) throws(FileError) -> WalkStep {
        self.offset = offset
        self.frame = frame
        defer { if brokenRecordEnd.map({ $0 < offset }) == true { brokenRecordEnd = nil } }
        switch met {
        case .endOfFile:
            return .stop
        case .truncated(let why):
            closePending(damagedAt: offset)
            problem(.tornTail(why), at: offset, frame: frame, seq: lastSeq + 1)
            return .stop
        case .invalid(let why):
            closePending(damagedAt: offset)
            if brokenRecordEnd != offset { problem(.badFrame(why), at: offset, frame: frame, seq: lastSeq + 1) }
            lostBlocks = true
            let next = try resync(after: offset)
            if next < size { problem(.skipped(bytes: next - offset), at: offset, frame: frame) }
            return .resume(at: next, frame: frame + 1)
        case .data(let extent):
            closePending()
            try verifyDataFrame(extent)
        case .record(let record):
            try verifySkippable(magic: NavLogFormat.navlogSkippableMagic, payloadSize: record.payloadSize)
        case .foreign(let magic, let payloadSize):
            try verifySkippable(magic: magic, payloadSize: payloadSize)
        }
        return .resume(at: self.offset, frame: self.frame)
    }

    // MARK: Preamble

    mutating func verifyPreamble() throws(FileError) {
        let bytes = try file.read(count: NavLogFormat.preambleBytes, at: 0)
        if let difference = bytes.withUnsafeBytes({ Preamble.difference($0) }) {
            // A store's segment is not a damaged log: one line naming it, not a problem a block.
            if difference.isSegment { throw difference.error(file.path) }
            problem(difference.damage, at: Int64(difference.offset), frame: difference.frame)
        }
        guard bytes.count == NavLogFormat.preambleBytes else {
            problem(.preambleCut(bytes: bytes.count),
                    at: Int64(bytes.count), frame: bytes.count < NavLogFormat.emptyFrame.count ? 0 : 1)
            return
        }
        let header = Int64(NavLogFormat.emptyFrame.count)
        // A byte of the header record found wrong above is that record's one problem, not also its checksum.
        if let offset = report.problems.last?.offset, offset >= header { return }
        bytes.withUnsafeBytes { all in
            let payload = UnsafeRawBufferPointer(rebasing: all[(NavLogFormat.emptyFrame.count + 8)...])
            switch SkippableFrame.checkRecord(payload) {
            case .failure(let p): problem(.headerRecord(p), at: header, frame: 1)
            case .success(let tag):
                if tag != NavLogFormat.Tag.header.rawValue { problem(.headerTag, at: header, frame: 1) }
                if let h = FileHeader(payload: payload), h.majorVersion != NavLogFormat.majorVersion {
                    problem(.headerVersion(major: h.majorVersion, minor: h.minorVersion), at: header, frame: 1)
                }
            }
        }
    }
}
