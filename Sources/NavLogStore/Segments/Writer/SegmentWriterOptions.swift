/// A segment writer's settings (schemas/segment-store.md §11); none of them
/// is needed to read a store.
public struct SegmentWriterOptions: Hashable, Sendable {
    /// Raw bytes of lines per data frame, cut at a line boundary.
    public var blockTarget: Int
    /// A session checkpoint every K positions.
    public var checkpointInterval: Int
    /// Raw bytes of lines buffered before a commit is written.
    public var commitTarget: Int
    /// Events handed over parsed (for the screen projection) buffered
    /// before a commit is written: such an event takes several times its
    /// line in memory, so short non-canonical lines reach this first.
    public var parsedTarget: Int
    /// Bytes on disk after which a segment is sealed and the next begun.
    public var segmentTarget: Int
    /// How data frames are compressed.
    public var lz4: LZ4FrameSettings
    /// Sessions the writer keeps in memory between commits; past it, those
    /// idle for a whole commit are forgotten (and read back if they return).
    public var sessionsKept: Int
    /// Whether the writer starts the screen projection
    /// (schemas/screen-projection.md) of a store that has no commit yet,
    /// and keeps it from the first commit on. A store with a projection file
    /// has it kept whatever this says; a store with commits and no
    /// projection stays without one (`navlog reindex` builds it).
    public var keepsProjection: Bool

    public init(blockTarget: Int = SegmentFormat.defaultBlockTarget,
                checkpointInterval: Int = SegmentFormat.defaultCheckpointInterval,
                commitTarget: Int = SegmentFormat.defaultCommitTarget,
                parsedTarget: Int = SegmentFormat.defaultParsedTarget,
                segmentTarget: Int = SegmentFormat.defaultSegmentTarget,
                lz4: LZ4FrameSettings = LZ4FrameSettings(),
                sessionsKept: Int = SegmentFormat.defaultSessionsKept,
                keepsProjection: Bool = true) {
        self.blockTarget = max(1, blockTarget)
        self.checkpointInterval = max(1, checkpointInterval)
        self.commitTarget = max(1, commitTarget)
        self.parsedTarget = max(1, parsedTarget)
        self.segmentTarget = max(1, segmentTarget)
        self.lz4 = lz4
        self.sessionsKept = max(0, sessionsKept)
        self.keepsProjection = keepsProjection
    }
}
