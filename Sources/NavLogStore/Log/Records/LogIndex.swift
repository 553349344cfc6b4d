/// What is known about a file's layout: its header, its committed blocks and
/// checkpoints, where its body ends, and what (if anything) follows —
/// established from the footer or by a walk (schemas/navlog-format.md §8).
struct LogIndex: Sendable {
    var header: FileHeader?
    var entries: [BlockEntry] = []
    var checkpoints: [CheckpointRef] = []
    /// End of the last block, checkpoint or passed-over foreign frame: where
    /// a writer appends.
    var bodyEnd: Int64 = 0
    /// Frame index of the frame at ``bodyEnd``.
    var nextFrameIndex: Int = 0
    /// Events in the committed blocks.
    var eventCount: Int = 0
    /// Set when the file ends with a valid footer and trailer right at ``bodyEnd``.
    var footerOffset: Int64?
    /// A data frame at ``bodyEnd`` that is not (yet) followed by its entry.
    var openFrame: OpenFrame?
    /// Why the walk stopped before the end of the file: a torn tail or damage.
    var stop: Damage<LogFault>?
    /// Whether ``stop`` is damage rather than a torn tail (``TornTailRule``).
    var stopIsCorruption: Bool {
        stop.map { !TornTailRule.lastValidUnit.isTornTail(at: $0.offset, cutShort: $0.isTornTail) } ?? false
    }
    /// The file size the index was made against.
    var fileSize: Int64 = 0

    /// The last committed seq (0 when none).
    var lastSeq: Int { entries.last?.lastSeq ?? 0 }
}

/// The unfinished (or unindexed) data frame at the end of a body.
struct OpenFrame: Hashable, Sendable {
    /// Byte offset of the data frame.
    var offset: Int64
    /// Its frame index.
    var frameIndex: Int
    /// Bytes of header and complete LZ4 blocks (the whole frame, if finished).
    var completeLength: Int
    /// Whether the frame's end mark and content checksum are present.
    var finished: Bool
}
