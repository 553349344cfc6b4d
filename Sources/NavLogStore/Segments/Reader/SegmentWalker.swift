/// What one segment holds: its committed commits and where the walk stopped
/// (schemas/segment-store.md §6, §9).
struct SegmentContents {
    var number: Int
    var name: String
    var header: SegmentHeader?
    /// Committed commits, in file order, and where each one's `NLCI` frame is.
    var commits: [CommitIndex] = []
    var indexLocations: [CommitIndexLocation] = []
    /// The end of the last committed commit (the preamble's end when none).
    var committedEnd: Int64 = 0
    var fileSize: Int64 = 0
    /// Whether a footer follows the last commit (the segment was sealed).
    var sealed = false
    /// Every problem met (a reading walk stops at the first).
    var problems: [SegmentDamage] = []
}

/// Walks a segment's frames, reading headers and records only (no data
/// frame is decompressed): the segment's grammar over the one walk
/// (``FileWindow/walk(from:frame:_:)``). A unit is the data frames and
/// `NLSC` checkpoints since the last unit, closed by an `NLCI` commit index
/// that is valid and agrees with them (§6): a committed commit. A reading
/// walk stops at the first problem; a verifying walk notes it and goes on
/// wherever the next frame's start is known.
struct SegmentWalker: UnitGrammar {
    let file: OpenFile
    let window: FileWindow
    let verifying: Bool
    private(set) var contents: SegmentContents
    /// The number the next commit must have (`nil` after damage: any).
    private var expected: UInt64?
    /// The frames of the unit under way.
    private var blocks: [(offset: Int64, length: Int, checksum: UInt32?)] = []
    private var checkpoints: [CommitIndexLocation] = []

    init(file: OpenFile, number: Int, verifying: Bool) throws(FileError) {
        self.file = file
        let size = try file.size()
        window = FileWindow(file: file, fileSize: size)
        contents = SegmentContents(number: number, name: SegmentFormat.segmentName(number), fileSize: size)
        self.verifying = verifying
    }

    /// Walks the segment; commits must be numbered from `previousCommit + 1` on.
    /// `resuming`: what an earlier reading walk of the same segment found
    /// (a follower's, §9): its commits are kept and the walk goes on from
    /// the end of the last one, unless the segment is now sealed (its footer
    /// is read) or shorter than that end (it is walked again whole).
    /// `durable`: the durable point, when it names this segment: a reading
    /// walk then follows the back-links from it and walks on from its end
    /// only (§9 "Open without a walk"), unless a link does not hold.
    func walk(previousCommit: UInt64, resuming known: SegmentContents? = nil,
              durable: DurablePoint? = nil) throws(FileError) -> SegmentContents {
        let number = contents.number
        var c = contents
        let head = try window.view(at: 0, count: SegmentFormat.preambleBytes, readingAhead: false)
        guard let header = SegmentHeader(preamble: head) else {
            let fixed = SegmentHeader(segmentNumber: number, blockTarget: 0, checkpointInterval: 0).preamble().prefix(27)
            let empty = head.count < SegmentFormat.preambleBytes && head.prefix(27).elementsEqual(fixed.prefix(head.count))
            c.problems.append(damage(0, nil, empty ? .tornTail("segment shorter than its preamble (\(head.count) bytes)")
                                                   : .header("not a valid segment preamble")))
            return c
        }
        guard header.major == SegmentFormat.majorVersion else {
            c.problems.append(damage(0, nil, .header("format \(header.major).\(header.minor) is not supported")))
            return c
        }
        c.header = header
        c.committedEnd = Int64(SegmentFormat.preambleBytes)
        if !verifying, let sealed = try SegmentFooterReader(window: window).commits(previousCommit: previousCommit) {
            c.commits = sealed.commits
            c.indexLocations = sealed.locations
            c.committedEnd = sealed.end
            c.sealed = true
            return c
        }
        var offset = c.committedEnd
        var expected: UInt64? = previousCommit + 1
        if known == nil, !verifying, let durable, durable.segment == number,
           let linked = try SegmentBackLinkReader(window: window).commits(to: durable, previousCommit: previousCommit) {
            c.commits = linked.commits
            c.indexLocations = linked.locations
            c.committedEnd = durable.end
            offset = durable.end
            expected = durable.commit + 1
        }
        if let known, !verifying, known.header != nil, known.committedEnd <= c.fileSize {
            c.commits = known.commits
            c.indexLocations = known.indexLocations
            c.committedEnd = known.committedEnd
            offset = known.committedEnd
            expected = (known.commits.last?.number).map { $0 + 1 } ?? expected
        }
        var grammar = self
        grammar.expected = expected
        swap(&grammar.contents, &c)
        try window.walk(from: offset, frame: 0, &grammar)     // a segment's damage names no frame number
        return grammar.contents
    }

    private func damage(_ offset: Int64, _ commit: UInt64?, _ kind: SegmentFault) -> SegmentDamage {
        SegmentDamage(file: contents.name, offset: offset, commit: commit, kind: kind)
    }

    /// Notes a problem; whether the walk stops there (a reading walk does).
    private mutating func stop(_ kind: SegmentFault, at offset: Int64) -> Bool {
        contents.problems.append(SegmentDamage(file: contents.name, offset: offset, commit: expected, kind: kind))
        return !verifying
    }

    mutating func meet(_ met: FrameMet, at offset: Int64, frame: Int) throws(FileError) -> WalkStep {
        switch met {
        case .endOfFile:
            if !blocks.isEmpty || !checkpoints.isEmpty {
                _ = stop(.tornTail("a commit without its index (\(contents.fileSize - contents.committedEnd) bytes)"),
                         at: contents.committedEnd)
            }
            return .stop
        case .truncated(let why):
            _ = stop(.tornTail(why.description), at: offset)
            return .stop
        case .invalid(let why):
            _ = stop(.frame(why.description), at: offset)
            return .stop
        case .data(let extent):
            guard let length = extent.length else {
                _ = stop(.tornTail("data frame cut short"), at: offset)
                return .stop
            }
            blocks.append((offset, length, extent.contentChecksum))
            return .next
        case .foreign:
            return .next
        case .record(let record):
            return try meet(record)
        }
    }

    private mutating func meet(_ record: WalkedRecord) throws(FileError) -> WalkStep {
        let offset = record.offset, size = record.payloadSize
        guard size >= 8, size <= SegmentFormat.maxRecordBytes else {
            return stop(.frame("navlog record of \(size) bytes"), at: offset) ? .stop : .next
        }
        let payload = try record.payload()
        let rawTag = payload.loadLE32(0)
        guard case .success = SkippableFrame.checkRecord(payload) else {
            if verifying, SegmentFormat.Tag.nearest(rawTag) == .checkpoint {
                // Still part of its commit; the verifier reports it when it reads it.
                checkpoints.append(CommitIndexLocation(offset: offset, length: 8 + size))
                return .next
            }
            let kind: SegmentFault = switch SegmentFormat.Tag.nearest(rawTag) {
            case .checkpoint: .checkpoint("record checksum does not hold")
            case .commitIndex: .commitIndex("record checksum does not hold")
            default: .frame("a navlog record's checksum does not hold")
            }
            if stop(kind, at: offset) { return .stop }
            blocks.removeAll(); checkpoints.removeAll(); expected = nil
            return .next
        }
        switch SegmentFormat.Tag(rawValue: rawTag) {
        case .checkpoint:
            checkpoints.append(CommitIndexLocation(offset: offset, length: 8 + size))
        case .commitIndex:
            let problem: String?
            switch CommitIndex.decode(payload: payload) {
            case .failure(let why): problem = why.description
            case .success(let index):
                problem = SegmentWalker.disagreement(index, blocks: blocks, checkpoints: checkpoints, expected: expected)
                if problem == nil {
                    contents.commits.append(index)
                    contents.indexLocations.append(CommitIndexLocation(offset: offset, length: 8 + size))
                    contents.committedEnd = record.end
                    contents.sealed = false
                    expected = index.number + 1
                }
            }
            if let problem {
                if stop(.commitIndex(problem), at: offset) { return .stop }
                expected = nil
            }
            blocks.removeAll(); checkpoints.removeAll()
        case .footer:
            contents.sealed = blocks.isEmpty && checkpoints.isEmpty
        case .segmentHeader:
            if stop(.frame("a second segment header"), at: offset) { return .stop }
        case nil:
            break           // NLTR, or a tag of a later minor version
        }
        return .next
    }

    /// Why a commit index does not describe the frames before it, or `nil`.
    static func disagreement(_ index: CommitIndex, blocks: [(offset: Int64, length: Int, checksum: UInt32?)],
                             checkpoints: [CommitIndexLocation], expected: UInt64?) -> String? {
        if let expected, index.number != expected { return "commit number \(index.number), \(expected) expected" }
        guard index.blocks.count == blocks.count else { return "\(index.blocks.count) blocks listed, \(blocks.count) written" }
        guard index.checkpoints.count == checkpoints.count else {
            return "\(index.checkpoints.count) checkpoints listed, \(checkpoints.count) written"
        }
        guard index.firstBlockOffset == blocks.first?.offset else { return "first block offset disagrees" }
        for (i, (listed, written)) in zip(index.blocks, blocks).enumerated()
        where listed.offset != written.offset || listed.length != written.length || listed.contentChecksum != written.checksum {
            return "block \(i) (byte \(written.offset)) disagrees with its entry"
        }
        for (i, (listed, written)) in zip(index.checkpoints, checkpoints).enumerated()
        where listed.offset != written.offset || listed.length != written.length {
            return "checkpoint \(i) (byte \(written.offset)) disagrees with its entry"
        }
        return nil
    }
}
