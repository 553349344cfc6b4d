/// What one run of the write pipeline did, whatever fed it: `navlog
/// ingest` (``StoreIngester``, which counts lines) or `navlog import`
/// (``StoreImporter``, which counts records). Both summaries, text and
/// JSON, are made from it.
public struct StoreWriteReport: Sendable {
    /// What the input is counted in.
    public enum Unit: Sendable {
        /// Lines, blank ones included (of a `.navlog` input, its events).
        case lines
        /// Records (blank lines and CSV headers not counted).
        case records
    }

    /// What ``read`` and ``rejected`` count.
    public let unit: Unit
    /// Lines or records read.
    public var read = 0
    /// Blank lines (skipped: neither stored nor rejected); 0 when counting records.
    public var blankLines = 0
    /// Events stored.
    public var stored = 0
    /// Events already stored (same session, seq and line): nothing done.
    public var duplicates = 0
    /// Lines or records rejected.
    public var rejected = 0
    /// Sessions that got events stored.
    public var sessions = 0
    /// Of those, sessions the store held nothing of before.
    public var newSessions = 0
    /// When the run was asked to stop before the end of its input: the
    /// last line read, of which input. Every line up to it was stored or
    /// rejected; none after it was read.
    public var stoppedAfter: (file: String, line: Int)?
    /// Why the store's screen projection is behind, if it is (``SegmentWriter/projectionBehind``).
    public var projectionBehind: String?

    public init(counting unit: Unit) { self.unit = unit }
}
