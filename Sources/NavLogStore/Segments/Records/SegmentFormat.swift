/// Constants of the segment store, format 2.1; each is defined in
/// `schemas/segment-store.md` (the section is named beside it).
public enum SegmentFormat {
    /// Store format major version; a reader refuses any other (§3).
    public static let majorVersion: UInt16 = 2
    /// Store format minor version (§3).
    public static let minorVersion: UInt16 = 1
    /// The manifest's file name and its one line (§3).
    public static let manifestName = "navlog-store"
    public static let manifestLine = "navlog-store \(majorVersion).\(minorVersion)\n"
    /// The lock file's name (§3).
    public static let lockName = "LOCK"
    /// A segment's suffix and the digits of its number (§3).
    public static let segmentSuffix = ".nls"
    public static let segmentDigits = 8

    /// Record tags (§5), the first four bytes of a record's payload.
    public enum Tag: UInt32, Sendable, CaseIterable {
        /// `NLSH`: the segment header (§5.1).
        case segmentHeader = 0x4853_4C4E
        /// `NLSC`: a session checkpoint (§5.2).
        case checkpoint = 0x4353_4C4E
        /// `NLCI`: a commit index (§5.3).
        case commitIndex = 0x4943_4C4E
        /// `NLSF`: the segment footer (§5.4).
        case footer = 0x4653_4C4E

        /// The tag `raw` is, or most likely was before a bit of it flipped
        /// (for naming what a damaged record was); `nil` when no tag is
        /// nearest alone within two bits.
        static func nearest(_ raw: UInt32) -> Tag? {
            if let exact = Tag(rawValue: raw) { return exact }
            let near = allCases.map { ($0, ($0.rawValue ^ raw).nonzeroBitCount) }.filter { $0.1 <= 2 }.sorted { $0.1 < $1.1 }
            guard let best = near.first, near.dropFirst().first?.1 != best.1 else { return nil }
            return best.0
        }
    }

    /// Payload sizes of the fixed parts (§5).
    static let headerPayloadBytes = 32
    static let commitFixedBytes = 64
    static let blockRefBytes = 40
    /// Where the back-link is in the first block's entry (§5.3).
    static let backLinkInBlockRef = 36
    static let checkpointRefBytes = 32
    static let footerRefBytes = 16
    /// A checkpoint payload's bytes besides the id and the LZ4 frame.
    static let checkpointFixedBytes = 46
    /// The preamble: the empty frame and the `NLSH` frame (§4).
    static let preambleBytes = NavLogFormat.emptyFrame.count + 8 + headerPayloadBytes
    /// The largest record a reader accepts (a commit index of a huge commit).
    static let maxRecordBytes = 256 << 20

    /// Writer defaults (§11).
    public static let defaultBlockTarget = 256 << 10
    public static let defaultCheckpointInterval = 4096
    public static let defaultCommitTarget = 16 << 20
    public static let defaultParsedTarget = 32_768
    public static let defaultSegmentTarget = 256 << 20
    public static let defaultSessionsKept = 65_536
    /// Bloom filter: bits per session and probes (§5.3).
    static let bloomBitsPerSession = 10
    static let bloomProbes = 7

    /// `00000001.nls` for segment 1.
    public static func segmentName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, segmentDigits - digits.count)) + digits + segmentSuffix
    }

    /// What a store's creation leaves before its manifest lands: a directory
    /// holding only these is an empty store (``StoreLayout/of(_:)``).
    static let creationLeftovers: Set<String> = [lockName, manifestName + ".tmp", DurablePoint.fileName]

    /// Whether `name` is a file a store makes in its directory (§3): the
    /// manifest, the lock, the durable point, segments and their torn or
    /// damaged side files, and screen projection files (not a projection's
    /// stray temporary: verify reports it, reindex removes it). The one list
    /// of a store's own names: `verify` reports any other, and `store
    /// upgrade` removes no directory holding another.
    static func isOwnName(_ name: String) -> Bool {
        if creationLeftovers.contains(name) || name == manifestName || segmentNumber(name) != nil { return true }
        if TornTail.Kind.marks(name, after: segmentSuffix) != nil { return true }
        return ScreenProjectionFormat.segmentNumber(name) != nil
    }

    /// The number of a segment file name, or `nil` for any other name.
    public static func segmentNumber(_ name: String) -> Int? {
        guard name.hasSuffix(segmentSuffix) else { return nil }
        let stem = name.dropLast(segmentSuffix.count)
        guard stem.count == segmentDigits, stem.allSatisfy({ $0.isASCII && $0.isNumber }),
              let n = Int(stem), n >= 1 else { return nil }
        return n
    }
}

extension SkippableFrame {
    /// Appends a segment-store record (§5): as ``appendRecord(tag:body:to:)-(_,_,inout [UInt8])``, with a tag of §5.
    static func appendRecord(_ tag: SegmentFormat.Tag, body: [UInt8], to out: inout [UInt8]) {
        appendRecord(tagValue: tag.rawValue, body: body, to: &out)
    }
}
