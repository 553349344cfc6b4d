/// Rows of `export screens`: screen views, and with `--with-marks` marks,
/// deep links, session starts and one row at each session's first event.
public struct ScreenRows: ExportRows {
    let ndjson: Bool
    let withMarks: Bool
    private var csv = CSVWriter()
    private var scratch = CanonicalWriter()
    private var lastSession: String?
    private var seen: Set<SessionID> = []
    /// Sessions whose first `session.start` has its row.
    private var started: Set<SessionID> = []
    /// From a screen projection: the blocks' names and scenes as CSV
    /// fields, the rows made in place (ScreenRows+ProjectedCSV.swift).
    var fields = ProjectionCSVFields()
    /// The session's first `session.start` while its `start` row waits for its place (`--with-marks`).
    var pendingStart: Event?
    var rowBytes: [UInt8] = []
    var times = CanonicalTimestampCache()

    /// The kind of the row at a session's first event (`--with-marks`).
    static let sessionKind = "session"

    public init(ndjson: Bool, withMarks: Bool) {
        self.ndjson = ndjson
        self.withMarks = withMarks
    }

    public mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8]) {
        if withMarks {
            if lastSession.map({ !SessionID.same(event.session, $0) }) ?? true, seen.insert(SessionID(event.session)).inserted {
                row(event.session, event.seq, event.t, "", "", Self.sessionKind, to: &out)
            }
            lastSession = event.session
            switch event.kind {
            case .mark(let label): row(event.session, event.seq, event.t, event.sceneID, label, "mark", to: &out)
            case .urlOpen(let url): row(event.session, event.seq, event.t, event.sceneID, url, "url", to: &out)
            case .sessionStart where started.insert(SessionID(event.session)).inserted: startRow(event, to: &out)
            default: break
            }
        }
        if let view { row(event.session, event.seq, event.t, event.sceneID, view.screen, "screen", to: &out) }
    }

    public static var readsProjection: Bool { true }
    /// A session's rows follow from its events (`seen` and `started` are kept by session).
    public static var rowsFollowSessions: Bool { true }
    /// Screen views follow a restore's scene; its object is never written.
    public static var readsRestoredObjects: Bool { false }
    /// Only the `start` rows of `--with-marks` are made from them.
    public var readsSessionStarts: Bool { withMarks }

    /// The same rows from a whole session as a store's screen projection
    /// holds it: CSV from the columns (``writeCSV(projected:to:)``), NDJSON
    /// from Strings. A part holds each session once, so no `seen` set.
    public mutating func write(projected session: ProjectedSession, to out: inout [UInt8]) {
        guard ndjson else { return writeCSV(projected: session, to: &out) }
        guard let first = session.runs.first else { return }
        let block = session.projection.blocks[Int(first.block)]
        let id = String(decoding: session.id, as: UTF8.self)
        if withMarks {
            row(id, block.firstSeq(Int(first.session)), Timestamp(milliseconds: block.firstMilliseconds(Int(first.session))), "", "", Self.sessionKind,
                to: &out)
        }
        // The first session.start's row goes where its event is: before the rows of its seq and after.
        var start = withMarks ? session.sessionStart : nil
        session.forEachRun { block, _, i in
            block.forEachRow(of: i) { seq, t, kind, name, scene in
                guard withMarks || kind == 0 else { return }
                if let event = start, seq >= event.seq {
                    startRow(event, to: &out)
                    start = nil
                }
                row(id, seq, Timestamp(milliseconds: t), block.sceneNames[scene], block.names[name],
                    ScreenProjectionBlock.kinds[kind].rawValue, to: &out)
            }
        }
        if let event = start { startRow(event, to: &out) }
    }

    /// The `start` row of a `session.start` event: its canonical line.
    mutating func startRow(_ event: Event, to out: inout [UInt8]) {
        scratch.reset()
        scratch.write(event)
        row(event.session, event.seq, event.t, event.sceneID, String(decoding: scratch.bytes, as: UTF8.self), "start", to: &out)
    }

    mutating func row(_ session: String, _ seq: Int, _ t: Timestamp, _ scene: String, _ screen: String, _ kind: String,
                              to out: inout [UInt8]) {
        if ndjson {
            // A canonical object: its members in key order (kind, scene, screen, seq, session, t), written in place.
            scratch.reset()
            scratch.bytes.append(UInt8(ascii: "{"))
            if withMarks {
                scratch.bytes += #""kind":"#.utf8
                scratch.writeString(kind)
                scratch.bytes.append(UInt8(ascii: ","))
            }
            scratch.bytes += #""scene":"#.utf8
            scratch.writeString(scene)
            scratch.bytes += #","screen":"#.utf8
            scratch.writeString(screen)
            scratch.bytes += #","seq":"#.utf8
            scratch.bytes += String(seq).utf8
            scratch.bytes += #","session":"#.utf8
            scratch.writeString(session)
            scratch.bytes += #","t":""#.utf8
            t.appendRFC3339(to: &scratch.bytes)
            scratch.bytes += #""}"#.utf8
            out += scratch.bytes
            out.append(0x0A)
        } else {
            csv.reset()
            csv.field(session, first: true)
            csv.field(seq, first: false)
            scratch.reset()
            t.appendRFC3339(to: &scratch.bytes)
            scratch.bytes.withUnsafeBufferPointer { csv.field(bytes: $0, first: false) }
            csv.field(scene, first: false)
            csv.field(screen, first: false)
            if withMarks { csv.field(kind, first: false) }
            csv.endRow()
            out += csv.bytes
        }
    }
}
