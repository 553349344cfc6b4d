/// What is wrong in a segment store (schemas/segment-store.md §9), in the
/// store's own words: the kind of its ``Damage``.
public enum SegmentFault: DamageKind, Error {
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

    /// The kind's name (in JSON output), the words that say it in text (if
    /// any) and what is wrong.
    public var parts: (name: String, words: String?, why: String) {
        switch self {
        case .tornTail(let why): ("tornTail", "torn tail", why)
        case .header(let why): ("header", "segment header", why)
        case .dataFrame(let why): ("dataFrame", "data frame", why)
        case .commitIndex(let why): ("commitIndex", "commit index", why)
        case .checkpoint(let why): ("checkpoint", "checkpoint", why)
        case .frame(let why): ("frame", nil, why)
        case .line(let why): ("line", nil, why)
        case .bloomFilter(let why): ("bloomFilter", "Bloom filter", why)
        case .segment(let why): ("segment", nil, why)
        case .storeFile(let why): ("storeFile", nil, why)
        case .unknownFile: ("unknownFile", nil, "a file the store does not know")
        case .projection(let why): ("projection", "screen projection", why)
        }
    }

    /// What is wrong, with the kind's words before it (`data frame: …`).
    public var description: String {
        let parts = parts
        return parts.words.map { "\($0): \(parts.why)" } ?? parts.why
    }

    /// Bytes after the durable point (§9.1), what a crash leaves; the next writer cuts it.
    public var isTornTail: Bool { if case .tornTail = self { true } else { false } }
}

/// One problem found in a segment store, with where it is: the segment (or
/// the store's file), the byte offset, and the commit and session when known.
public typealias SegmentDamage = Damage<SegmentFault>
