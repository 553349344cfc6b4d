/// The segment header (`NLSH`, §5.1), the footer (`NLSF`, §5.4) and the
/// trailer that points at it (navlog-format §5.5): the fixed records of a
/// segment (schemas/segment-store.md).
struct SegmentHeader: Hashable, Sendable {
    var major: UInt16 = SegmentFormat.majorVersion
    var minor: UInt16 = SegmentFormat.minorVersion
    var segmentNumber: Int
    var blockTarget: Int
    var checkpointInterval: Int

    /// The preamble: the empty frame, then the header record.
    func preamble() -> [UInt8] {
        var out = NavLogFormat.emptyFrame
        var body: [UInt8] = []
        body.appendLE(major)
        body.appendLE(minor)
        body.appendLE(UInt32(0))                                   // flags
        body.appendLE(UInt32(truncatingIfNeeded: segmentNumber))
        body.appendLE(UInt32(truncatingIfNeeded: blockTarget))
        body.appendLE(UInt32(truncatingIfNeeded: checkpointInterval))
        body.appendLE(UInt32(0))                                   // reserved
        SkippableFrame.appendRecord(.segmentHeader, body: body, to: &out)
        return out
    }

    /// The header of a preamble's bytes; `nil` when they are not a valid segment preamble.
    init?(preamble p: UnsafeRawBufferPointer) {
        let empty = NavLogFormat.emptyFrame
        guard p.count >= SegmentFormat.preambleBytes, p.prefix(empty.count).elementsEqual(empty),
              p.loadLE32(empty.count) == NavLogFormat.navlogSkippableMagic,
              p.loadLE32(empty.count + 4) == UInt32(SegmentFormat.headerPayloadBytes) else { return nil }
        let payload = UnsafeRawBufferPointer(rebasing: p[(empty.count + 8)..<SegmentFormat.preambleBytes])
        guard case .success(SegmentFormat.Tag.segmentHeader.rawValue) = SkippableFrame.checkRecord(payload) else {
            return nil
        }
        major = payload.loadLE16(4)
        minor = payload.loadLE16(6)
        segmentNumber = Int(payload.loadLE32(12))
        blockTarget = Int(payload.loadLE32(16))
        checkpointInterval = Int(payload.loadLE32(20))
    }

    init(segmentNumber: Int, blockTarget: Int, checkpointInterval: Int) {
        self.segmentNumber = segmentNumber
        self.blockTarget = blockTarget
        self.checkpointInterval = checkpointInterval
    }
}

/// Where a commit index frame is: the footer's entries (§5.4).
struct CommitIndexLocation: Hashable, Sendable {
    var offset: Int64
    var length: Int
}

enum SegmentFooter {
    /// The footer frame at `offset` listing `commits`, and the trailer after it.
    static func bytes(commits: [CommitIndexLocation], at offset: Int64) -> [UInt8] {
        var body: [UInt8] = []
        body.appendLE(UInt64(commits.count))
        for commit in commits {
            body.appendLE(UInt64(commit.offset))
            body.appendLE(UInt32(truncatingIfNeeded: commit.length))
            body.appendLE(UInt32(0))
        }
        var out: [UInt8] = []
        SkippableFrame.appendRecord(.footer, body: body, to: &out)
        var trailer: [UInt8] = []
        trailer.appendLE(UInt64(offset))
        SkippableFrame.appendRecord(tag: .trailer, body: trailer, to: &out)
        return out
    }

    /// The commit index locations of a footer payload (tag and checksum checked); `nil` if malformed.
    static func locations(payload p: UnsafeRawBufferPointer) -> [CommitIndexLocation]? {
        guard p.count >= 16 else { return nil }
        let n = p.loadLE64(4)
        guard n <= UInt64(p.count), 12 + Int(n) * SegmentFormat.footerRefBytes + 4 == p.count else { return nil }
        return (0..<Int(n)).map { i in
            let at = 12 + i * SegmentFormat.footerRefBytes
            return CommitIndexLocation(offset: Int64(bitPattern: p.loadLE64(at)), length: Int(p.loadLE32(at + 8)))
        }
    }
}
