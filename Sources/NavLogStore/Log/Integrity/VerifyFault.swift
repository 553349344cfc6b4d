import NavLogCore

/// What only ``LogVerifier`` checks: the content of each data frame, the
/// records between frames, and the footer against the walk
/// (``LogFault/verify(_:)``).
public enum VerifyFault: Hashable, Sendable, CustomStringConvertible {
    /// A data frame without a content checksum.
    case noContentChecksum
    /// The frame header's content size is not what the frame holds.
    case contentSizeClaim(claimed: UInt64, holds: Int)
    /// An unfinished data frame at the end, what liblz4 said of it and how many events `repair` keeps of it.
    case unfinishedFrame(LZ4FrameError?, recoverableEvents: Int, bytes: Int64)
    /// The content does not end with a newline.
    case noFinalNewline
    /// Line `line` (from 1) of a block does not parse.
    case lineUnparsable(line: Int, EventParseError)
    /// An event of another session.
    case otherSession(String, log: String)
    /// A seq not above the one before it.
    case seqNotIncreasing(seq: Int, previous: Int)
    /// A data frame with no block entry after it.
    case entryMissing
    /// A skippable frame of another program.
    case foreignSkippable(magic: UInt32)
    /// A navlog record whose size is out of range.
    case recordSize(bytes: Int)
    /// A block entry whose record checksum does not hold.
    case entryRecord(SkippableFrame.RecordProblem)
    /// A navlog record whose checksum does not hold.
    case record(SkippableFrame.RecordProblem)
    /// A footer whose fields do not add up.
    case footerFields
    /// A trailer not right after a footer, or not at the end.
    case trailerMisplaced
    /// A footer with no trailer after it.
    case footerWithoutTrailer
    /// A block entry with a field out of range.
    case entryFieldsOutOfRange
    /// A block entry whose fields are not what its data frame holds.
    case entryMismatch([FieldMismatch])
    /// A footer that does not describe the file.
    case footerMismatch([FooterMismatch])

    public var description: String {
        switch self {
        case .noContentChecksum: "data frame has no content checksum"
        case .contentSizeClaim(let claimed, let holds): "data frame header claims \(claimed) bytes of content, it holds \(holds)"
        case .unfinishedFrame(let error, let recoverable, let bytes):
            "unfinished data frame (a writer is active, or it crashed)\(error.map { ": \($0)" } ?? ""); \(recoverable) events recoverable, \(bytes) bytes"
        case .noFinalNewline: "data frame content does not end with a newline"
        case .lineUnparsable(let line, let error): "line \(line) of the block does not parse: \(error)"
        case .otherSession(let id, let log): "session \"\(id)\" differs from the log's \"\(log)\""
        case .seqNotIncreasing(let seq, let previous): "seq \(seq) does not increase (previous \(previous))"
        case .entryMissing: "data frame is not followed by its block entry"
        case .foreignSkippable(let magic):
            "skippable frame with foreign magic \(hex(magic)) (navlog writes only \(hex(NavLogFormat.navlogSkippableMagic)))"
        case .recordSize(let bytes): "navlog record of \(bytes) bytes is out of range"
        case .entryRecord(let problem): "block entry: \(problem)"
        case .record(let problem): "record: \(problem)"
        case .footerFields: "footer fields do not add up"
        case .trailerMisplaced: "trailer does not point at a footer right before it, or is not at the end of the file"
        case .footerWithoutTrailer: "footer is not followed by its trailer at the end of the file"
        case .entryFieldsOutOfRange: "block entry fields out of range"
        case .entryMismatch(let fields): "block entry: " + fields.map(\.description).joined(separator: "; ")
        case .footerMismatch(let fields): "footer: " + fields.map(\.description).joined(separator: "; ")
        }
    }
}

/// A block entry field that is not what its data frame holds: the field's
/// name, the value stored and the value the data gives (as written in the message).
public struct FieldMismatch: Hashable, Sendable, CustomStringConvertible {
    public var field: String
    public var stored: String
    public var found: String

    public var description: String { "\(field) \(stored), data says \(found)" }
}

/// A footer field that does not describe the file.
public enum FooterMismatch: Hashable, Sendable, CustomStringConvertible {
    case footerOffset(stored: Int64, actual: Int64)
    case frameIndex(stored: Int, actual: Int)
    case entries(stored: Int, inFile: Int)
    case checkpoints(stored: Int, inFile: Int)
    case eventCount(stored: Int, inBlocks: Int)

    public var description: String {
        switch self {
        case .footerOffset(let stored, let actual): "footer offset \(stored), it is at \(actual)"
        case .frameIndex(let stored, let actual): "frame index \(stored), it is \(actual)"
        case .entries(let stored, let inFile): "its \(stored) block entries differ from the \(inFile) in the file"
        case .checkpoints(let stored, let inFile): "its \(stored) checkpoints differ from the \(inFile) in the file"
        case .eventCount(let stored, let inBlocks): "event count \(stored), blocks hold \(inBlocks)"
        }
    }
}
