/// The screen-projection blocks a reader reads (one per commit of a store,
/// in commit order; schemas/screen-projection.md), shared by reference: a
/// tally keeps tables per block while it reads the same blocks.
public final class ScreenProjectionBlocks: Sendable {
    public let blocks: [ScreenProjectionBlock]

    public init(_ blocks: [ScreenProjectionBlock]) { self.blocks = blocks }
}

/// One run of a session in a screen projection: session `session` of block `block`.
public struct ProjectedRun: Hashable, Sendable {
    public var block: Int32
    public var session: Int32

    public init(block: Int32, session: Int32) {
        self.block = block
        self.session = session
    }
}

/// One session as a store's screen projection holds it: its runs, one per
/// commit that has it, in commit order. A ``SessionTally`` reads it from the
/// columns (``SessionTally/add(projected:)``), or as ``SessionOccurrences``.
public struct ProjectedSession {
    public let projection: ScreenProjectionBlocks
    public let runs: ArraySlice<ProjectedRun>

    public init(projection: ScreenProjectionBlocks, runs: ArraySlice<ProjectedRun>) {
        self.projection = projection
        self.runs = runs
    }

    /// The session as ``SessionOccurrences`` record it from its events.
    public func occurrences(keepsMarks: Bool) -> SessionOccurrences {
        SessionOccurrences(runs: runs.map { projection.blocks[Int($0.block)].run(Int($0.session)) }, keepsMarks: keepsMarks)
    }

    /// The block and session index of each run, in commit order.
    @inline(__always)
    public func forEachRun(_ body: (ScreenProjectionBlock, Int, Int) -> Void) {
        for run in runs { body(projection.blocks[Int(run.block)], Int(run.block), Int(run.session)) }
    }

    /// When the session started (``SessionOccurrences/startTime``): its first
    /// `session.start`, else its first event; and that `session.start`'s run.
    public func start() -> (milliseconds: Int64?, run: ProjectedRun?) {
        for run in runs {
            let block = projection.blocks[Int(run.block)]
            if block.startIndex(Int(run.session)) > 0 { return (block.startSeqAndTime(Int(run.session)).milliseconds, run) }
        }
        guard let first = runs.first else { return (nil, nil) }
        return (projection.blocks[Int(first.block)].firstMilliseconds(Int(first.session)), nil)
    }
}

extension ProjectedSession {
    /// The session's id (its runs all have it).
    public var id: ArraySlice<UInt8> {
        guard let first = runs.first else { return [] }
        return projection.blocks[Int(first.block)].sessionID(Int(first.session))
    }

    /// The session's first `session.start` event, whole (its session, seq and time set), if any.
    public var sessionStart: Event? {
        start().run.flatMap { projection.blocks[Int($0.block)].sessionStart(Int($0.session)) }
    }
}

extension SessionTally {
    /// Counts one session read from a screen projection: as its ``SessionOccurrences``.
    public mutating func add(projected session: ProjectedSession) {
        add(session.occurrences(keepsMarks: Self.needsMarks))
    }
}
