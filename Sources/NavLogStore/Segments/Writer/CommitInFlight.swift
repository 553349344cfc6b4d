/// One commit being compressed, written and synced on its own thread while
/// the writer gathers the next one (at most one at a time): the plan, the
/// arena holding its lines and the appender are the thread's until
/// ``land()`` has joined it; the writer touches none of them meanwhile.
final class CommitInFlight: @unchecked Sendable {
    /// What the thread did: the commit as appended (its segment, index and
    /// where the index is), or why not.
    typealias Landed = (segment: Int, index: CommitIndex, location: CommitIndexLocation)

    /// The arena the commit's lines are in (the writer's again once landed).
    let arena: ByteBuffer
    private let plan: CommitPlan
    private let appender: SegmentAppender
    private let encoder: LZ4FrameEncoder
    /// The projection, the commit's sessions in key order (their screen
    /// state is the thread's too) and the events of its lines that came parsed.
    private let projection: (writer: ScreenProjectionWriter, sessions: [WriterSession], parsed: ParsedEvents)?
    private var result: Result<Landed, SegmentStoreError>?
    private var thread: WorkerThread?

    /// Starts writing `plan` (its lines in `arena`) through `appender` on a new thread.
    init(_ plan: CommitPlan, arena: ByteBuffer, appender: SegmentAppender, encoder: LZ4FrameEncoder,
         projection: (writer: ScreenProjectionWriter, sessions: [WriterSession], parsed: ParsedEvents)?) {
        self.plan = plan
        self.projection = projection
        self.arena = arena
        self.appender = appender
        self.encoder = encoder
        thread = WorkerThread { [self] in result = Result { () throws(SegmentStoreError) in try write() } }
    }

    /// On the thread: the commit at the end of the current segment (or a
    /// new one), synced; then its projection block.
    private func write() throws(SegmentStoreError) -> Landed {
        let (segment, offset, backLink) = try appender.prepare()
        let (bytes, index, location) = try plan.encode(base: offset, backLink: backLink, encoder: encoder, arena: arena)
        try appender.append(bytes.bytes, index: location, commit: index.number)
        let landed = (segment, index, location)
        if let projection {
            projection.writer.append(plan, landed: landed, sessions: projection.sessions, arena: arena, parsed: projection.parsed)
        }
        return landed
    }

    /// The events of the commit's lines that came parsed (the writer's again once landed).
    var parsed: ParsedEvents? { projection?.parsed }

    /// Waits for the thread and gives what it did.
    func land() throws(SegmentStoreError) -> Landed {
        thread?.join()
        thread = nil
        return try result!.get()
    }
}
