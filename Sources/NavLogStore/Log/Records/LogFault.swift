import NavLogCore

/// What is wrong with a `.navlog` file's bytes, in the log's own words: the
/// kind of its ``Damage`` (a verifier's problem), of ``FileError/Kind/corrupt``
/// and of what a reader left out at the end. One case per rule broken, with
/// what was expected and what was found. ``description`` is the one place
/// its text is made; ``isTornTail`` tells a write cut short (by a crash, or
/// still going on) from damaged bytes.
public indirect enum LogFault: DamageKind {
    // MARK: The file cut short

    /// The file ends inside a frame whose extent is not known yet.
    case tornTail(Truncation)
    /// The verifier's view of a file that ends inside its preamble.
    case preambleCut(bytes: Int)
    /// An unfinished data frame at the end of the file, and what a reader keeps of it.
    case openFrame(OpenFrameDamage)

    // MARK: The preamble

    /// A byte or two of the fixed preamble is wrong.
    case headerByte(offset: Int)
    /// The file does not start like a `.navlog` file.
    case notANavlog(NotANavlog)
    /// The header record's checksum does not hold.
    case headerRecord(SkippableFrame.RecordProblem)
    /// The header record's tag is not `NLHD`.
    case headerTag
    /// The header's format version is not one this build reads.
    case headerVersion(major: UInt16, minor: UInt16)
    /// The header is damaged, so `repair` keeps nothing.
    case headerUnrepairable

    // MARK: Frames

    /// Bytes that are not a valid frame start.
    case badFrame(FrameFault)
    /// The verifier passed over `bytes` damaged bytes to the next frame.
    case skipped(bytes: Int64)
    /// A committed block's data frame does not read back.
    case dataFrame(DataFrameFault)
    /// A data frame at `dataOffset` is not followed by a valid block entry.
    case noEntry(dataOffset: Int64, EntryFault)
    /// A block entry does not describe the data frame before it.
    case entryDisagrees(EntryDisagreement)
    /// A navlog record too short to hold its tag and checksum.
    case recordTooShort(bytes: Int)
    /// A block entry with no data frame before it.
    case entryWithoutData
    /// A header record after the first.
    case secondHeader
    /// A checkpoint that is damaged or does not fit the log.
    case checkpoint(CheckpointFault)
    /// What only the verifier checks (entries, lines, the footer).
    case verify(VerifyFault)

    // MARK: Lines of a committed block

    /// A stored line that does not parse.
    case storedLine(EventParseError)
    /// A stored line whose seq lies outside its block's range.
    case storedSeqOutside(seq: Int, first: Int, last: Int)
    /// A block read to its end that did not reach its entry's last seq.
    case blockEndsEarly(lastSeq: Int, entryLastSeq: Int)

    // MARK: Elsewhere

    /// Damage a writer will not append after.
    case needsRepair(LogFault)
    /// liblz4 could not make a decoder.
    case noDecoder(LZ4FrameError)
    /// More logs than a store tries collide with one session's name.
    case sessionCollisions(limit: Int, session: String)

    public var description: String {
        switch self {
        case .tornTail(let cut): "torn tail: \(cut)"
        case .preambleCut(let bytes): Truncation.preamble(bytes: bytes).description
        case .openFrame(let open): open.description
        case .headerByte(let offset):
            "header is damaged: byte \(offset) (in \(offset < NavLogFormat.emptyFrame.count ? "the zero-byte LZ4 frame" : "the header record")) is wrong"
        case .notANavlog(let why): why.description
        case .headerRecord(let problem): "header is damaged: \(problem)"
        case .headerTag: "header: tag is not NLHD"
        case .headerVersion(let major, let minor): "format version \(major).\(minor) is not supported"
        case .headerUnrepairable: "header is damaged; nothing to keep"
        case .badFrame(let fault): fault.description
        case .skipped(let bytes): "\(bytes) bytes skipped to the next frame"
        case .dataFrame(let fault): "data frame: \(fault)"
        case .noEntry(let dataOffset, let fault):
            "data frame at byte \(dataOffset) is not followed by a valid block entry: \(fault)"
        case .entryDisagrees(let why): "block entry disagrees with its data frame: \(why)"
        case .recordTooShort(let bytes): "navlog record of \(bytes) bytes is shorter than tag and checksum"
        case .entryWithoutData: "block entry without a data frame before it"
        case .secondHeader: "second header record"
        case .checkpoint(let fault): fault.description
        case .verify(let fault): fault.description
        case .storedLine(let error): "stored line does not parse: \(error)"
        case .storedSeqOutside(let seq, let first, let last): "stored line has seq \(seq), outside its block's \(first)…\(last)"
        case .blockEndsEarly(let lastSeq, let entryLastSeq): "block ends at seq \(lastSeq), its entry says \(entryLastSeq)"
        case .needsRepair(let damage): "\(damage); run 'navlog repair' first"
        case .noDecoder(let error): "cannot create an LZ4 decoder: \(error)"
        case .sessionCollisions(let limit, let session): "more than \(limit) logs collide with session \"\(session.prefix(64))\""
        }
    }

    /// Whether this is a write cut short (by a crash, or one still going on)
    /// rather than damaged bytes: what a reader passes over and a writer's
    /// own recovery repairs.
    public var isTornTail: Bool {
        switch self {
        case .tornTail: true
        case .openFrame(let open): open.isTornTail
        default: false
        }
    }
}

/// How a file that is not a `.navlog` file starts (``FileError/Kind/notANavlog``).
public enum NotANavlog: Hashable, Sendable, CustomStringConvertible {
    /// Byte `offset` of the zero-byte LZ4 frame every log starts with differs.
    case noEmptyFrame(offset: Int)
    /// Byte `offset` of the header record after it differs.
    case noHeader(offset: Int)
    /// The header record is not of the header's size.
    case headerRecordSize
    /// The file is a healthy segment of the segment store in directory
    /// `store` (schemas/segment-store.md §4), given where a log is read.
    case segment(store: String)

    public var description: String {
        switch self {
        case .noEmptyFrame(let offset): "does not start with the zero-byte LZ4 frame (byte \(offset))"
        case .noHeader(let offset): "no navlog header after the zero-byte LZ4 frame (byte \(offset))"
        case .headerRecordSize: "header record of the wrong size"
        case .segment(let store):
            "it is a segment of the store \(store): read its sessions with `navlog sessions \(store)`, "
                + "one of them with `navlog state \(store) --session ID` (or cat, info, verify \(store))"
        }
    }
}
