import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog export screens`: one row per screen view (contract §2, §4).
struct ExportScreensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screens",
        abstract: "One row per screen view: session,seq,t,scene,screen.",
        discussion: """
            A screen view is emitted each time an event changes its scene's visible screen \
            (contract §2). CSV columns are exactly session,seq,t,scene,screen; NDJSON lines \
            have the same keys. With --with-marks a sixth column, kind, says what a row is: \
            screen (a screen view), mark (screen holds the mark's label), url (screen holds the \
            deep link's URL), start (screen holds the session's first session.start event's \
            canonical JSON line, for --by) or session (one row at each session's first event, screen empty), \
            which is what tools/funnel.sql reads to compute funnels with mark: and url: steps.

            --output DIR writes gzip part files (DIR/part-NNNNN.csv.gz) instead of standard \
            output; with --partition-by day, Hive-style DIR/dt=YYYY-MM-DD/part-NNNNN.csv.gz by \
            the UTC day of each row's t, which DuckDB, Spark and BigQuery load as they are \
            (docs/export.md).

            Examples:
              navlog export screens store/ > screens.csv
              navlog export screens store/ --with-marks > steps.csv
              navlog export screens store/ --with-marks --output steps/ --partition-by day
              duckdb -c "SELECT screen, count(*) FROM 'screens.csv' GROUP BY 1 ORDER BY 2"
            """
    )

    @OptionGroup var options: ExportOptions

    @Flag(help: "Add mark, deep-link, session-start and session rows and a kind column (for tools/funnel.sql).")
    var withMarks = false

    func run() throws {
        let ndjson = options.format == .ndjson, withMarks = self.withMarks
        var csv = CSVWriter()
        if !ndjson { csv.row(["session", "seq", "t", "scene", "screen"] + (withMarks ? ["kind"] : [])) }
        try options.write(header: csv.bytes) { ScreenRows(ndjson: ndjson, withMarks: withMarks) }
    }
}

/// Rows of `export screens`: screen views, and with `--with-marks` marks,
/// deep links, session starts and one row at each session's first event.
struct ScreenRows: ExportRows {
    let ndjson: Bool
    let withMarks: Bool
    private var csv = CSVWriter()
    private var scratch = CanonicalWriter()
    private var lastSession: String?
    private var seen: Set<SessionID> = []
    /// Sessions whose first `session.start` has its row.
    private var started: Set<SessionID> = []
    /// From a screen projection: the session's id as a CSV field, and the blocks' names and scenes as CSV fields.
    private var idField: [UInt8] = []
    private var fields = ProjectionCSVFields()

    init(ndjson: Bool, withMarks: Bool) {
        self.ndjson = ndjson
        self.withMarks = withMarks
    }

    mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8]) {
        if withMarks {
            if lastSession.map({ !SessionID.same(event.session, $0) }) ?? true, seen.insert(SessionID(event.session)).inserted {
                row(event.session, event.seq, event.t, "", "", "session", to: &out)
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

    static var readsProjection: Bool { true }

    /// The same rows from a whole session as a store's screen projection
    /// holds it: CSV from the columns, each name and scene of a block
    /// escaped once. A part holds each session once, so no `seen` set.
    mutating func write(projected session: ProjectedSession, to out: inout [UInt8]) {
        guard let first = session.runs.first else { return }
        let id = String(decoding: session.id, as: UTF8.self)
        if !ndjson {
            csv.reset()
            csv.field(id, first: true)
            idField = csv.bytes
        }
        if withMarks {
            let block = session.projection.blocks[Int(first.block)]
            row(id, block.firstSeq(Int(first.session)), Timestamp(milliseconds: block.firstMilliseconds(Int(first.session))), "", "", "session",
                to: &out)
        }
        fields.use(session.projection)
        // The first session.start's row goes where its event is: before the rows of its seq and after.
        var start = withMarks ? session.sessionStart : nil
        session.forEachRun { block, b, i in
            block.forEachRow(of: i) { seq, t, kind, name, scene in
                guard withMarks || kind == 0 else { return }
                if let event = start, seq >= event.seq {
                    startRow(event, to: &out)
                    start = nil
                }
                if ndjson {
                    row(id, seq, Timestamp(milliseconds: t), block.sceneNames[scene], block.names[name],
                        ScreenProjectionBlock.kinds[kind].rawValue, to: &out)
                } else {
                    out += idField
                    out.append(0x2C)
                    scratch.reset()
                    scratch.writeInt(seq)
                    out += scratch.bytes
                    out.append(0x2C)
                    Timestamp(milliseconds: t).appendRFC3339(to: &out)
                    out.append(0x2C)
                    out += fields.scene(b, block, scene)
                    out.append(0x2C)
                    out += fields.name(b, block, name)
                    if withMarks {
                        out.append(0x2C)
                        out += ScreenProjectionBlock.kinds[kind].rawValue.utf8
                    }
                    out.append(0x0A)
                }
            }
        }
        if let event = start { startRow(event, to: &out) }
    }

    /// The `start` row of a `session.start` event: its canonical line.
    private mutating func startRow(_ event: Event, to out: inout [UInt8]) {
        scratch.reset()
        scratch.write(event)
        row(event.session, event.seq, event.t, event.sceneID, String(decoding: scratch.bytes, as: UTF8.self), "start", to: &out)
    }

    private mutating func row(_ session: String, _ seq: Int, _ t: Timestamp, _ scene: String, _ screen: String, _ kind: String,
                              to out: inout [UInt8]) {
        if ndjson {
            scratch.reset()
            var object: [String: JSONValue] = [
                "session": .string(session), "seq": .number(String(seq)),
                "t": .string(t.rfc3339), "scene": .string(scene), "screen": .string(screen),
            ]
            if withMarks { object["kind"] = .string(kind) }
            scratch.write(object: object)
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

/// The names and scenes of the screen-projection blocks being read, each
/// made a CSV field (``CSVWriter``) on first use.
struct ProjectionCSVFields {
    private var owner: ScreenProjectionBlocks?
    private var names: [[[UInt8]?]] = []
    private var scenes: [[[UInt8]?]] = []
    private var csv = CSVWriter()

    /// Forgets the fields when `projection` is not the blocks they are of.
    mutating func use(_ projection: ScreenProjectionBlocks) {
        guard owner !== projection else { return }
        owner = projection
        names = projection.blocks.map { Array(repeating: nil, count: $0.names.count) }
        scenes = projection.blocks.map { Array(repeating: nil, count: $0.sceneNames.count) }
    }

    mutating func name(_ b: Int, _ block: ScreenProjectionBlock, _ i: Int) -> [UInt8] {
        if let field = names[b][i] { return field }
        let field = make(block.names[i])
        names[b][i] = field
        return field
    }

    mutating func scene(_ b: Int, _ block: ScreenProjectionBlock, _ i: Int) -> [UInt8] {
        if let field = scenes[b][i] { return field }
        let field = make(block.sceneNames[i])
        scenes[b][i] = field
        return field
    }

    private mutating func make(_ text: String) -> [UInt8] {
        csv.reset()
        csv.field(text, first: true)
        return csv.bytes
    }
}
