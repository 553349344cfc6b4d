/// One problem found in a segment store (schemas/segment-store.md §9), with
/// where it is: the segment, the byte offset, and the commit and session
/// when known.
public struct SegmentDamage: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// Bytes after the last commit that no commit index covers (the last segment only).
        case tornTail(String)
        /// The preamble (`NLSH`) is missing, damaged or of another major version.
        case header(String)
        /// A data frame fails to decompress or disagrees with its commit index.
        case dataFrame(String)
        /// A commit index (`NLCI`) is damaged or disagrees with its frames.
        case commitIndex(String)
        /// A checkpoint (`NLSC`) is damaged, or its state or chain is wrong.
        case checkpoint(String)
        /// The footer, the trailer, or a frame that is neither LZ4 nor skippable.
        case frame(String)
        /// A line that is not a canonical event, out of session-key order, or whose seq does not increase.
        case line(String)
        /// A commit's Bloom filter misses one of its sessions.
        case bloomFilter(String)
        /// A segment that is torn or damaged before the last one, or missing.
        case segment(String)
        /// The manifest or `COMMITTED` is missing or unreadable (§3, §6.1).
        case storeFile(String)
        /// A file in the store directory the store does not know.
        case unknownFile
        /// A screen-projection file (schemas/screen-projection.md) that is damaged, cut short or not what the events give.
        case projection(String)
    }

    /// The segment's file name (or the unknown file's).
    public var segment: String
    public var offset: Int64
    public var commit: UInt64?
    public var session: String?
    public var kind: Kind

    public init(segment: String, offset: Int64, commit: UInt64? = nil, session: String? = nil, kind: Kind) {
        self.segment = segment
        self.offset = offset
        self.commit = commit
        self.session = session
        self.kind = kind
    }

    /// Whether it is only a torn tail: bytes after the durable point (§9.1),
    /// what a crash leaves; the next writer cuts it.
    public var isTornTail: Bool { if case .tornTail = kind { true } else { false } }

    /// What is wrong, without the place.
    public var what: String {
        switch kind {
        case .tornTail(let why): "torn tail: \(why)"
        case .header(let why): "segment header: \(why)"
        case .dataFrame(let why): "data frame: \(why)"
        case .commitIndex(let why): "commit index: \(why)"
        case .checkpoint(let why): "checkpoint: \(why)"
        case .frame(let why), .line(let why), .segment(let why), .storeFile(let why): why
        case .bloomFilter(let why): "Bloom filter: \(why)"
        case .unknownFile: "a file the store does not know"
        case .projection(let why): "screen projection: \(why)"
        }
    }

    public var description: String {
        var place = "\(segment): byte \(offset)"
        if let commit { place += ", commit \(commit)" }
        if let session { place += ", session \(session)" }
        return "\(place): \(what)"
    }
}
