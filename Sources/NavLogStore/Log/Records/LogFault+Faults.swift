import NavLogCore

/// Why a committed block's data frame does not read back (after `data frame: `).
public enum DataFrameFault: Hashable, Sendable, CustomStringConvertible {
    /// The entry's content size is over the limit.
    case contentOverLimit(bytes: Int, limit: Int)
    /// The entry's frame length cannot be right.
    case implausibleLength(Int)
    /// The file ends `read` bytes into a frame of `length`.
    case endsInside(read: Int, length: Int)
    /// The frame decoded from fewer or more bytes than its entry says.
    case length(decoded: Int, entry: Int)
    /// liblz4 refused the frame (a checksum, a malformed block, a limit).
    case lz4(LZ4FrameError)
    /// The content is not the size the entry records.
    case contentSize(decoded: Int, entry: Int)
    /// The frame's content checksum is not the one its entry records.
    case contentChecksum(stored: UInt32, entry: UInt32)
    /// The LZ4 frame header is cut short.
    case headerCutShort
    /// The LZ4 frame header breaks a rule of the LZ4 frame format.
    case header(LZ4HeaderFault)
    /// The frame ends before its end mark.
    case noEndMark
    /// An LZ4 block runs past the end of its frame.
    case blockRunsPast(bytes: Int)
    /// An LZ4 block's checksum does not match its bytes.
    case blockChecksum(stored: UInt32, computed: UInt32)
    /// The end mark is not where the frame ends.
    case endMark(at: Int, frameBytes: Int)

    public var description: String {
        switch self {
        case .contentOverLimit(let bytes, let limit): "content size \(bytes) is over the limit of \(limit)"
        case .implausibleLength(let length): "frame length \(length) is implausible"
        case .endsInside(let read, let length): "file ends inside the frame (\(read) of \(length) bytes)"
        case .length(let decoded, let entry): "frame is \(decoded) bytes, entry says \(entry)"
        case .lz4(let error): error.description
        case .contentSize(let decoded, let entry): "content is \(decoded) bytes, entry says \(entry)"
        case .contentChecksum(let stored, let entry): "content checksum \(hex(stored)) differs from the entry's \(hex(entry))"
        case .headerCutShort: "frame header cut short"
        case .header(let fault): fault.description
        case .noEndMark: "frame ends before its end mark"
        case .blockRunsPast(let bytes): "LZ4 block size \(bytes) runs past the frame"
        case .blockChecksum(let stored, let computed): "LZ4 block checksum \(hex(stored)) does not match its data (\(hex(computed)))"
        case .endMark(let at, let frameBytes): "end mark at \(at) of a frame of \(frameBytes) bytes"
        }
    }
}

/// Why the bytes after a data frame are not its block entry.
public enum EntryFault: Hashable, Sendable, CustomStringConvertible {
    /// The bytes at `offset`, cut by the end of the file, do not start like an entry.
    case notAnEntry(offset: Int64)
    /// No skippable-frame header of an entry's size.
    case noFrameHeader
    /// The record's checksum does not hold.
    case record(SkippableFrame.RecordProblem)
    /// The record's tag is not `NLBK`.
    case tag
    /// A field of the entry is out of range.
    case fieldsOutOfRange

    public var description: String {
        switch self {
        case .notAnEntry(let offset): "bytes at \(offset) are not a block entry"
        case .noFrameHeader: "no block entry frame header"
        case .record(let problem): problem.description
        case .tag: "record tag is not NLBK"
        case .fieldsOutOfRange: "block entry fields out of range"
        }
    }
}

/// How a block entry fails to describe the data frame before it (the walk's check).
public enum EntryDisagreement: Hashable, Sendable, CustomStringConvertible {
    case dataOffset(entry: Int64, frame: Int64)
    case dataLength(entry: Int, frame: Int)
    case blockIndex(entry: Int, expected: Int)
    case frameIndex(entry: Int, expected: Int)
    case noContentChecksum
    case contentChecksum(entry: UInt32, frame: UInt32)
    case contentSize(entry: Int, frameHeader: UInt64)
    case contentOverLimit(entry: Int)
    case firstSeq(Int, previous: Int)
    case runningMaxT

    public var description: String {
        switch self {
        case .dataOffset(let entry, _): "entry says the frame is at byte \(entry)"
        case .dataLength(let entry, let frame): "entry says the frame is \(entry) bytes, it is \(frame)"
        case .blockIndex(let entry, let expected): "block index \(entry), expected \(expected)"
        case .frameIndex(let entry, let expected): "frame index \(entry), expected \(expected)"
        case .noContentChecksum: "data frame has no content checksum"
        case .contentChecksum(let entry, let frame): "content checksum \(hex(entry)), frame has \(hex(frame))"
        case .contentSize(let entry, let header): "content size \(entry), frame header says \(header)"
        case .contentOverLimit(let entry): "content size \(entry) over the limit of \(NavLogFormat.maxBlockContentBytes)"
        case .firstSeq(let first, let previous): "first seq \(first) does not follow \(previous)"
        case .runningMaxT: "running max t is inconsistent"
        }
    }

    /// The verifier's words for a field that disagrees (it lists every one;
    /// it reports a frame without a content checksum on its own).
    var field: FieldMismatch? {
        switch self {
        case .dataOffset(let entry, let frame): FieldMismatch(field: "data offset", stored: "\(entry)", found: "\(frame)")
        case .dataLength(let entry, let frame): FieldMismatch(field: "data length", stored: "\(entry)", found: "\(frame)")
        case .blockIndex(let entry, let expected): FieldMismatch(field: "block index", stored: "\(entry)", found: "\(expected)")
        case .frameIndex(let entry, let expected): FieldMismatch(field: "frame index", stored: "\(entry)", found: "\(expected)")
        case .contentChecksum(let entry, let frame): FieldMismatch(field: "content checksum", stored: "\(entry)", found: "\(frame)")
        default: nil
        }
    }
}

/// A checkpoint that is damaged or does not fit the log: as the walk, the
/// loader of a checkpoint's state and the verifier find it.
public enum CheckpointFault: Error, Hashable, Sendable, CustomStringConvertible {
    // The walk.
    case overLimit(bytes: Int)
    case cutShort
    case record(SkippableFrame.RecordProblem)
    case fieldsOutOfRange
    case notAfterBlock
    case mismatch(block: Int, seq: Int, lastBlock: Int, lastSeq: Int)
    // Loading its state.
    case frameLength(Int)
    case endsInside
    case frameHeader
    case tag
    case fieldsDisagree
    case state(CheckpointStateFault)
    case stateSeq(state: Int, record: Int)
    // The verifier.
    case notAfterVerifiedEntry
    case verifiedState(CheckpointStateFault)
    case stateDiffers

    public var description: String {
        switch self {
        case .overLimit(let bytes): "checkpoint of \(bytes) bytes is over the limit"
        case .cutShort: "checkpoint cut short"
        case .record(let problem): "checkpoint: \(problem)"
        case .fieldsOutOfRange: "checkpoint fields out of range"
        case .notAfterBlock: "checkpoint does not follow a block"
        case .mismatch(let block, let seq, let lastBlock, let lastSeq):
            "checkpoint (block \(block), seq \(seq)) does not match the block before it (block \(lastBlock), seq \(lastSeq))"
        case .frameLength(let length): "checkpoint: frame length \(length) is out of range"
        case .endsInside: "checkpoint: file ends inside the checkpoint"
        case .frameHeader: "checkpoint: bad frame header"
        case .tag: "checkpoint: record is not NLCP"
        case .fieldsDisagree: "checkpoint: fields out of range or not matching the index"
        case .state(.bytesAfterFrame): "checkpoint: trailing bytes after the state frame"
        case .state(.frame(let error)): "checkpoint: state frame: \(error)"
        case .state(.size(let decoded, let record)): "checkpoint: state JSON is \(decoded) bytes, record says \(record)"
        case .state(.undecodable): "checkpoint: state JSON does not decode"
        case .stateSeq(let state, let record): "checkpoint: state is after seq \(state), record says \(record)"
        case .notAfterVerifiedEntry: "checkpoint does not follow a verified block entry"
        case .verifiedState(.bytesAfterFrame): "checkpoint: bytes after the state frame"
        case .verifiedState(.frame(let error)): "checkpoint state frame: \(error)"
        case .verifiedState(.size(let decoded, let record)): "checkpoint state is \(decoded) bytes, record says \(record)"
        case .verifiedState(.undecodable): "checkpoint state does not decode"
        case .stateDiffers: "checkpoint state differs from the state replayed from the events"
        }
    }
}

/// Why a checkpoint's state does not read back: one rule
/// (``CheckpointRecord/decodeState(_:decoder:into:)``), which the loader and
/// the verifier each word their own way (``CheckpointFault``).
public enum CheckpointStateFault: Hashable, Sendable {
    case frame(LZ4FrameError)
    case bytesAfterFrame
    case size(decoded: Int, record: Int)
    case undecodable
}

/// The unfinished data frame at the end of a log, as a reader and a
/// writer's recovery see it.
public enum OpenFrameDamage: Hashable, Sendable, CustomStringConvertible {
    /// Its length cannot be right.
    case implausible(bytes: Int)
    /// Its LZ4 frame header does not parse.
    case headerUnreadable
    /// liblz4 refused one of its LZ4 blocks.
    case lz4(LZ4FrameError)
    /// Its last complete LZ4 block ends inside a line.
    case lastBlockInsideLine
    /// A line of it does not parse.
    case lineUnparsable
    /// A line's seq does not follow the one before.
    case seqNotFollowing(seq: Int, previous: Int)
    /// A line of another session than the log's.
    case otherSession(String)
    /// Complete, but no block entry follows it.
    case noEntry
    /// Still being written, or cut short.
    case unfinished
    /// A writer's recovery: the frame at `offset` was cut.
    case cutAt(offset: Int64)
    /// A writer's recovery: the frame at `offset` was finished in place.
    case finishedInPlace(offset: Int64)

    public var description: String {
        switch self {
        case .implausible(let bytes): "open frame of \(bytes) bytes is implausible"
        case .headerUnreadable: "open frame header is unreadable"
        case .lz4(let error): "open frame: \(error)"
        case .lastBlockInsideLine: "open frame's last LZ4 block ends inside a line"
        case .lineUnparsable: "a line of the unfinished data frame does not parse"
        case .seqNotFollowing(let seq, let previous): "seq \(seq) in the unfinished data frame does not follow \(previous)"
        case .otherSession(let id): "a line of the unfinished data frame is of session \"\(id.prefix(64))\", not the log's"
        case .noEntry: "data frame not followed by its block entry (unfinished write)"
        case .unfinished: "data frame unfinished (being written, or torn)"
        case .cutAt(let offset): "unfinished data frame at byte \(offset)"
        case .finishedInPlace(let offset): "unfinished data frame at byte \(offset) finished in place"
        }
    }

    /// Whether a write was cut short, rather than bytes damaged: liblz4
    /// refusing a block, or lines that are not a valid continuation, are damage.
    public var isTornTail: Bool {
        switch self {
        case .lz4, .lineUnparsable, .seqNotFollowing, .otherSession: false
        default: true
        }
    }
}
