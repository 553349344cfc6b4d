// Frames/: What both file formats are made of: LZ4 frames (liblz4's frame API), skippable frames, xxHash, little-endian fields; the one walk over them (`FrameWalk`), the one damage value (`Damage`), the one rule of torn tail or damage (`TornTailRule`), and setting bytes aside (`TornTail`).

/// What a format calls wrong with its bytes, in its own words: each case
/// prints as what is wrong, without the place (a `.navlog`'s ``LogFault``,
/// a segment store's ``SegmentFault``).
public protocol DamageKind: Hashable, Sendable, CustomStringConvertible {
    /// Whether it is a write cut short (by a crash, or one still going on)
    /// rather than damaged bytes, as the walk met it; ``TornTailRule`` says
    /// what it is with the durable point.
    var isTornTail: Bool { get }
}

/// One problem in a file of frames (schemas/format-layer.md §3), as walkers,
/// verifiers, repairs and followers of both formats report it: the file,
/// the byte offset, the frame, the unit (a store's commit), the seq or
/// session where they are known, and what is wrong. ``description`` is the
/// one place its line is made:
///
/// ```
/// s-1.navlog: byte 48213, frame 9, seq 4097: data frame: LZ4F_decompress: ERROR_contentChecksum_invalid
/// 00000001.nls: byte 8192, commit 3, session s-7: checkpoint: record checksum does not hold
/// ```
public struct Damage<Kind: DamageKind>: Hashable, Sendable, CustomStringConvertible {
    /// The file (a log's path; a segment's or store file's name).
    public var file: String
    public var offset: Int64
    /// The frame's index, counted from 0 at the start of the file (a log's).
    public var frame: Int?
    /// The commit (a segment's unit).
    public var commit: UInt64?
    /// The seq of the event concerned (for a block: its first).
    public var seq: Int?
    public var session: String?
    /// What is wrong.
    public var kind: Kind

    public init(file: String, offset: Int64, frame: Int? = nil, commit: UInt64? = nil, seq: Int? = nil,
                session: String? = nil, kind: Kind) {
        self.file = file
        self.offset = offset
        self.frame = frame
        self.commit = commit
        self.seq = seq
        self.session = session
        self.kind = kind
    }

    /// Whether the walk met it as a write cut short.
    public var isTornTail: Bool { kind.isTornTail }

    public var description: String {
        "\(file): \(placeText(offset: offset, frame: frame, commit: commit, seq: seq, session: session)): \(kind)"
    }
}

/// Where in a file something is, "byte 48213, frame 9, seq 4097", leaving
/// out what is not known: the one way every damage, error and note of a
/// file says it.
func placeText(offset: Int64?, frame: Int? = nil, commit: UInt64? = nil, seq: Int? = nil, session: String? = nil) -> String {
    [offset.map { "byte \($0)" }, frame.map { "frame \($0)" }, commit.map { "commit \($0)" }, seq.map { "seq \($0)" },
     session.map { "session \($0)" }].compactMap { $0 }.joined(separator: ", ")
}
