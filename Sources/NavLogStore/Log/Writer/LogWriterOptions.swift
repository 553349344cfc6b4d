/// How a ``LogWriter`` seals blocks and when it makes appended events
/// durable (schemas/navlog-format.md §6).
public struct LogWriterOptions: Hashable, Sendable {
    /// When appended events reach the disk and are synced.
    public enum Durability: Hashable, Sendable {
        /// Every `append` call is durable when it returns.
        case everyAppend
        /// An `append` makes everything durable when the last sync is at
        /// least this old. (Driven by appends: an idle writer syncs on its
        /// next append, `flush()` or `close()`.)
        case interval(milliseconds: Int)
        /// Each sealed block is synced as it is written, and `flush()`.
        case everySeal
        /// Only `flush()` and `close()` sync.
        case onFlush
    }

    /// When appended events become durable; default ``Durability/onFlush``.
    public var durability: Durability
    /// Seal a block once its raw lines reach this many bytes (default 256 KiB, measured).
    public var blockTargetBytes: Int
    /// Seal a block once it holds this many events (`nil`: no count limit).
    public var maxBlockEvents: Int?
    /// Seal a block once its first event was appended this long ago (`nil`: no age limit).
    public var maxBlockAgeMilliseconds: Int?
    /// K: a checkpoint after every K events (default 4096, measured); the
    /// state at any seq is then a checkpoint plus at most K folded events.
    public var checkpointInterval: Int
    /// LZ4 settings of data frames.
    public var frameSettings: LZ4FrameSettings
    /// With ``Durability/everySeal`` or ``Durability/onFlush``: compress,
    /// write and sync sealed blocks on a thread of the writer's own, so that
    /// `append` only validates, encodes and projects (default `false`: one
    /// thread per open writer does not suit a process with hundreds open).
    ///
    /// The file gets the same bytes in the same order, and `flush()` and
    /// `close()` still return only once everything is written and synced. A
    /// failed write or sync is thrown by the next `append` that seals a
    /// block, or by `flush()` or `close()`, instead of by the `append` whose
    /// block it was. Ignored with the other durability policies.
    public var sealsInBackground: Bool

    /// The default block target (see schemas/navlog-format.md §11).
    public static let defaultBlockTargetBytes = 256 << 10
    /// The default checkpoint interval K (see schemas/navlog-format.md §11).
    public static let defaultCheckpointInterval = 4096
    /// The largest block target accepted (keeps every block far below the
    /// 64 MiB a reader accepts, even with a 1 MiB line on top).
    public static let maxBlockTargetBytes = 16 << 20

    public init(
        durability: Durability = .onFlush,
        blockTargetBytes: Int = LogWriterOptions.defaultBlockTargetBytes,
        maxBlockEvents: Int? = nil,
        maxBlockAgeMilliseconds: Int? = nil,
        checkpointInterval: Int = LogWriterOptions.defaultCheckpointInterval,
        frameSettings: LZ4FrameSettings = LZ4FrameSettings(),
        sealsInBackground: Bool = false
    ) {
        self.durability = durability
        self.blockTargetBytes = min(max(blockTargetBytes, 1), LogWriterOptions.maxBlockTargetBytes)
        self.maxBlockEvents = maxBlockEvents.map { max($0, 1) }
        self.maxBlockAgeMilliseconds = maxBlockAgeMilliseconds.map { max($0, 0) }
        self.checkpointInterval = max(checkpointInterval, 1)
        self.frameSettings = frameSettings
        self.sealsInBackground = sealsInBackground
    }
}
