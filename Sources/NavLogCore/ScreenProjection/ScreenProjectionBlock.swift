/// What the screen projection keeps of one session's run in one commit
/// (schemas/screen-projection.md §2): its screen views, marks and deep
/// links, its first event, and its first `session.start` when that is in
/// this run.
public struct ScreenProjectionRun: Hashable, Sendable {
    public var session: String
    /// The seq and time of the run's first event.
    public var firstSeq: Int
    public var firstT: Timestamp
    /// The session's first `session.start`, when in this run.
    public var sessionStart: Event?
    /// In seq order.
    public var occurrences: [FunnelOccurrence]
    /// `sessionStart`'s template (``ScreenProjectionBlock/template(before:)``)
    /// when the writer made it from its canonical line: writing the event
    /// canonically again is most of the cost of encoding short sessions.
    package var sessionStartTemplate: String?

    public init(session: String, firstSeq: Int, firstT: Timestamp, sessionStart: Event?, occurrences: [FunnelOccurrence]) {
        self.session = session
        self.firstSeq = firstSeq
        self.firstT = firstT
        self.sessionStart = sessionStart
        self.occurrences = occurrences
    }
}

/// One commit's screen projection as the body of an `NLVB` record
/// (schemas/screen-projection.md §2): dictionary-encoded names and scenes,
/// delta-coded seq and time, in fixed-width columns. ``encode(commit:indexOffset:runs:)``
/// writes it; ``init(decoding:)`` checks every width, offset and index, so
/// that reading a session's rows afterwards cannot go out of range.
/// A class, immutable: readers hand blocks around per session and per run,
/// and a copy is then one reference, not a dozen.
public final class ScreenProjectionBlock: Sendable {
    /// The commit it covers: its number and the offset of its `NLCI` frame.
    public let commit: UInt64
    public let indexOffset: Int64
    public let sessionCount: Int
    public let rowCount: Int
    /// The block's names (screen names, mark labels, URLs), each once: a
    /// reader matches a pattern against these, not against every row.
    public let names: [String]
    let scenes: [String]
    /// The `session.start` events, each without its session, seq and time (a
    /// template), when kept parsed: none when decoded without them
    /// (``hasTemplates``), or when the reader's ``SessionStartTemplates``
    /// found too many distinct ones to keep (then each is parsed from
    /// ``templates`` when asked for, so that memory does not grow with the
    /// sessions of a store whose every `session.start` differs).
    let starts: [Event]
    /// Whether the templates were checked to be events: a reader that never
    /// asks for a `session.start` (screen rows, paths) skips parsing them.
    public let hasTemplates: Bool
    /// The templates' canonical lines, in ``bytes``.
    private let templates: ProjectionStringTable
    package let bytes: [UInt8]
    let baseT: Int64
    let idEnd, rowEnd, firstSeq, firstT, start, startSeq, startT: ProjectionColumn
    let ids: Range<Int>
    let kind, name, scene, dseq, dt: ProjectionColumn

    public static let kinds: [FunnelStep.Target] = [.screen, .mark, .url]
    /// The session a `session.start` template is written with (its seq is 1, its time 0).
    static let templateSession = "-"

    /// The template of a `session.start` whose canonical line is `before`
    /// followed by `"seq":N,"session":"ID","t":"T","type":"session.start"}`
    /// (no member after `type`): the line with session `-`, seq 1 and t 0,
    /// as ``encode(commit:indexOffset:runs:)`` writes it from the event.
    package static func template(before: UnsafeRawBufferPointer) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(before.count + templateEnd.count)
        bytes.append(contentsOf: before)
        bytes.append(contentsOf: templateEnd)
        return String(decoding: bytes, as: UTF8.self)
    }
    private static let templateEnd = Array(#""seq":1,"session":"-","t":"1970-01-01T00:00:00.000Z","type":"session.start"}"#.utf8)

    /// The body of the block of one commit; `runs` in session-key order.
    public static func encode(commit: UInt64, indexOffset: Int64, runs: [ScreenProjectionRun]) -> [UInt8] {
        var names = BlockStringTable(), scenes = BlockStringTable(), starts = BlockStringTable()
        var writer = CanonicalWriter()
        let baseT = runs.map(\.firstT.milliseconds).min() ?? 0
        var idEnd: [UInt64] = [], rowEnd: [UInt64] = [], firstSeq: [UInt64] = [], firstT: [UInt64] = []
        var start: [UInt64] = [], startSeq: [UInt64] = [], startT: [UInt64] = []
        var ids: [UInt8] = []
        var kind: [UInt64] = [], name: [UInt64] = [], scene: [UInt64] = [], dseq: [UInt64] = [], dt: [UInt64] = []
        for run in runs {
            ids += run.session.utf8
            idEnd.append(UInt64(ids.count))
            if var event = run.sessionStart {
                startSeq.append(ProjectionColumnWriter.zigzag(Int64(event.seq &- run.firstSeq)))
                startT.append(ProjectionColumnWriter.zigzag(event.t.milliseconds &- run.firstT.milliseconds))
                var template = run.sessionStartTemplate
                if template == nil {
                    (event.session, event.seq, event.t) = (Self.templateSession, 1, Timestamp(milliseconds: 0))
                    writer.reset()
                    writer.write(event)
                    template = String(decoding: writer.bytes, as: UTF8.self)
                }
                start.append(UInt64(starts.number(template!)) + 1)
            } else {
                start.append(0)
                startSeq.append(0)
                startT.append(0)
            }
            firstSeq.append(UInt64(bitPattern: Int64(run.firstSeq)))
            firstT.append(ProjectionColumnWriter.zigzag(run.firstT.milliseconds &- baseT))
            var seq = run.firstSeq, t = run.firstT.milliseconds
            for o in run.occurrences {
                kind.append(UInt64(kinds.firstIndex(of: o.target) ?? 0))
                name.append(UInt64(names.number(o.name)))
                scene.append(UInt64(scenes.number(o.scene)))
                dseq.append(ProjectionColumnWriter.zigzag(Int64(o.seq &- seq)))
                dt.append(ProjectionColumnWriter.zigzag(o.t.milliseconds &- t))
                seq = o.seq
                t = o.t.milliseconds
            }
            rowEnd.append(UInt64(kind.count))
        }
        var w = ProjectionColumnWriter()
        w.integer(commit, bytes: 8)
        w.integer(UInt64(bitPattern: indexOffset), bytes: 8)
        w.integer(UInt64(bitPattern: baseT), bytes: 8)
        w.integer(UInt64(runs.count), bytes: 4)
        w.integer(UInt64(kind.count), bytes: 4)
        w.strings(names.strings)
        w.strings(scenes.strings)
        w.strings(starts.strings)
        for column in [idEnd, rowEnd, firstSeq, firstT, start, startSeq, startT] { w.column(column) }
        w.blob(ids)
        for column in [kind, name, scene, dseq, dt] { w.column(column) }
        return w.bytes
    }

    /// Reads and checks a block body; its `session.start` templates are
    /// parsed (and checked to be events) only `withTemplates`.
    public convenience init(decoding bytes: [UInt8], withTemplates: Bool = true) throws(ScreenProjectionError) {
        var templates = SessionStartTemplates()
        try self.init(decoding: bytes, withTemplates: withTemplates, templates: &templates)
    }

    /// ``init(decoding:withTemplates:)`` with the templates parsed into, or
    /// found in, `templates`: a reader of many blocks keeps one event for
    /// each template the blocks repeat.
    public init(decoding bytes: [UInt8], withTemplates: Bool, templates: inout SessionStartTemplates) throws(ScreenProjectionError) {
        var r = ProjectionColumnReader(bytes)
        commit = try r.integer(bytes: 8)
        indexOffset = Int64(bitPattern: try r.integer(bytes: 8))
        baseT = Int64(bitPattern: try r.integer(bytes: 8))
        sessionCount = try r.count(limit: bytes.count)
        rowCount = try r.count(limit: bytes.count)
        names = try r.strings()
        scenes = try r.strings()
        let table = try r.stringTable()
        var starts: [Event] = []
        if withTemplates {
            starts.reserveCapacity(table.count)
            for i in 0..<table.count {
                let line = String(decoding: bytes[table.range(i, in: bytes)], as: UTF8.self)
                guard let event = templates.event(line) else { throw .malformed("a session.start template is not an event") }
                starts.append(event)
            }
            // Too many distinct ones to keep: each is parsed again when asked for.
            if templates.isFull { starts = [] }
        }
        self.templates = table
        self.starts = starts
        hasTemplates = withTemplates
        idEnd = try r.column(count: sessionCount)
        rowEnd = try r.column(count: sessionCount)
        firstSeq = try r.column(count: sessionCount)
        firstT = try r.column(count: sessionCount)
        start = try r.column(count: sessionCount)
        startSeq = try r.column(count: sessionCount)
        startT = try r.column(count: sessionCount)
        ids = try r.blob()
        kind = try r.column(count: rowCount)
        name = try r.column(count: rowCount)
        scene = try r.column(count: rowCount)
        dseq = try r.column(count: rowCount)
        dt = try r.column(count: rowCount)
        guard r.at == bytes.count else { throw .malformed("\(bytes.count - r.at) bytes after the last column") }
        try r.checkEnds(idEnd, limit: ids.count, "id")
        try r.checkBelow(start, table.count + 1, "session.start index")
        try r.checkEnds(rowEnd, limit: rowCount, "row")
        let lastRow = sessionCount == 0 ? 0 : rowEnd.int(sessionCount - 1, in: bytes)
        guard lastRow == rowCount else { throw .malformed("the sessions hold \(lastRow) rows, \(rowCount) listed") }
        try r.checkBelow(kind, Self.kinds.count, "kind")
        try r.checkBelow(name, names.count, "name index")
        try r.checkBelow(scene, scenes.count, "scene index")
        self.bytes = bytes
    }

    /// The id bytes of session `i` (0 ..< ``sessionCount``).
    public func sessionID(_ i: Int) -> ArraySlice<UInt8> {
        bytes[sessionIDRange(i)]
    }

    /// Calls `body` with the id bytes of session `i`, without copying them.
    @inline(__always)
    public func withSessionID<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        let range = sessionIDRange(i)
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Calls `body` with each session's index and id bytes, in order, without copying them.
    public func forEachSessionID(_ body: (Int, UnsafeBufferPointer<UInt8>) -> Void) {
        for i in 0..<sessionCount { withSessionID(i) { body(i, $0) } }
    }

    private func sessionIDRange(_ i: Int) -> Range<Int> {
        let start = i == 0 ? 0 : idEnd.int(i - 1, in: bytes)
        return (ids.lowerBound + start)..<(ids.lowerBound + idEnd.int(i, in: bytes))
    }

    /// The row range of session `i`.
    public func rows(_ i: Int) -> Range<Int> {
        (i == 0 ? 0 : rowEnd.int(i - 1, in: bytes))..<rowEnd.int(i, in: bytes)
    }

    /// The index into ``names`` of row `r`.
    public func nameIndex(_ r: Int) -> Int { name.int(r, in: bytes) }

    /// The seq of session `i`'s first event.
    public func firstSeq(_ i: Int) -> Int { Int(truncatingIfNeeded: firstSeq.value(i, in: bytes)) }

    /// The time of session `i`'s first event, in milliseconds.
    public func firstMilliseconds(_ i: Int) -> Int64 { baseT &+ ProjectionColumn.unzigzag(firstT.value(i, in: bytes)) }

    /// 1 + the index of session `i`'s `session.start` template, 0 when its
    /// first `session.start` is not in this run.
    public func startIndex(_ i: Int) -> Int { start.int(i, in: bytes) }

    /// How many `session.start` templates the block holds.
    public var startCount: Int { templates.count }

    /// Template `s − 1` (``startIndex(_:)`` `s` > 0): the event without its session, seq and time.
    public func startTemplate(_ s: Int) -> Event {
        precondition(hasTemplates, "a screen-projection block decoded without its session.start templates")
        if !starts.isEmpty { return starts[s - 1] }
        var parser = EventLineParser()
        let range = templates.range(s - 1, in: bytes)
        let event = bytes.withUnsafeBytes { try? parser.parse(UnsafeRawBufferPointer(rebasing: $0[range])) }
        // It parsed when the block was decoded: the same bytes parse again.
        guard let event else { preconditionFailure("a session.start template checked on decoding does not parse") }
        return event
    }

    /// The seq and time (milliseconds) of session `i`'s first `session.start` (``startIndex(_:)`` > 0).
    public func startSeqAndTime(_ i: Int) -> (seq: Int, milliseconds: Int64) {
        (firstSeq(i) &+ Int(truncatingIfNeeded: ProjectionColumn.unzigzag(startSeq.value(i, in: bytes))),
         firstMilliseconds(i) &+ ProjectionColumn.unzigzag(startT.value(i, in: bytes)))
    }

    /// Session `i`'s first `session.start` event, whole (its session, seq
    /// and time set), when it is in this run.
    public func sessionStart(_ i: Int) -> Event? {
        guard case let s = startIndex(i), s > 0 else { return nil }
        var event = startTemplate(s)
        let (seq, t) = startSeqAndTime(i)
        (event.session, event.seq, event.t) = (String(decoding: sessionID(i), as: UTF8.self), seq, Timestamp(milliseconds: t))
        return event
    }

    /// The scene names (indexes of ``forEachRow(of:_:)``).
    public var sceneNames: [String] { scenes }

    /// Calls `body` with each row of session `i`, in seq order: its seq, its
    /// time in milliseconds, its kind (an index into ``kinds``: screen, mark,
    /// url), and its name and scene as indexes into ``names`` and ``sceneNames``.
    /// The one place a row's delta coding is undone.
    @inline(__always)
    public func forEachRow(of i: Int, _ body: (_ seq: Int, _ milliseconds: Int64, _ kind: Int, _ name: Int, _ scene: Int) -> Void) {
        var seq = firstSeq(i), t = firstMilliseconds(i)
        let range = rows(i)
        bytes.withUnsafeBufferPointer { p in
            for r in range {
                seq = seq &+ Int(truncatingIfNeeded: ProjectionColumn.unzigzag(dseq.value(r, in: p)))
                t = t &+ ProjectionColumn.unzigzag(dt.value(r, in: p))
                body(seq, t, Int(truncatingIfNeeded: kind.value(r, in: p)), Int(truncatingIfNeeded: name.value(r, in: p)),
                     Int(truncatingIfNeeded: scene.value(r, in: p)))
            }
        }
    }

    /// Session `i`'s run, whole.
    public func run(_ i: Int) -> ScreenProjectionRun {
        var occurrences: [FunnelOccurrence] = []
        occurrences.reserveCapacity(rows(i).count)
        forEachRow(of: i) { seq, t, kind, name, scene in
            occurrences.append(FunnelOccurrence(seq: seq, t: Timestamp(milliseconds: t), target: Self.kinds[kind],
                                                name: names[name], scene: scenes[scene]))
        }
        let session = String(decoding: sessionID(i), as: UTF8.self)
        let sessionStart = self.sessionStart(i)
        return ScreenProjectionRun(session: session, firstSeq: firstSeq(i), firstT: Timestamp(milliseconds: firstMilliseconds(i)),
                                   sessionStart: sessionStart, occurrences: occurrences)
    }
}
