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
            deep link's URL) or session (one row at each session's first event, screen empty), \
            which is what tools/funnel.sql reads to compute funnels with mark: and url: steps.

            Examples:
              navlog export screens store/ > screens.csv
              navlog export screens store/ --with-marks > steps.csv
              duckdb -c "SELECT screen, count(*) FROM 'screens.csv' GROUP BY 1 ORDER BY 2"
            """
    )

    @OptionGroup var options: ExportOptions

    @Flag(help: "Add mark, deep-link and session rows and a kind column (for tools/funnel.sql).")
    var withMarks = false

    func run() throws {
        let inputs = try SessionStream(commandLine: options.inputs)
        let ndjson = options.format == .ndjson, withMarks = self.withMarks
        if !ndjson {
            var csv = CSVWriter()
            csv.row(["session", "seq", "t", "scene", "screen"] + (withMarks ? ["kind"] : []))
            Output.write(csv.bytes)
        }
        try inputs.writeRows(redactor: options.redactor, to: { Output.write($0) }) { ScreenRows(ndjson: ndjson, withMarks: withMarks) }
    }
}

/// Rows of `export screens`: screen views, and with `--with-marks` marks,
/// deep links and one row at each session's first event.
struct ScreenRows: ExportRows {
    let ndjson: Bool
    let withMarks: Bool
    private var csv = CSVWriter()
    private var scratch = CanonicalWriter()
    private var lastSession: String?
    private var seen: Set<SessionID> = []

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
            default: break
            }
        }
        if let view { row(event.session, event.seq, event.t, event.sceneID, view.screen, "screen", to: &out) }
    }

    static var readsOccurrences: Bool { true }

    /// The same rows from a whole session's occurrences (a store's screen projection).
    mutating func write(_ session: SessionOccurrences, to out: inout [UInt8]) {
        if withMarks, let seq = session.firstEventSeq, let t = session.firstEventTime, seen.insert(SessionID(session.session)).inserted {
            row(session.session, seq, t, "", "", "session", to: &out)
        }
        lastSession = session.session
        for o in session.occurrences where withMarks || o.target == .screen {
            row(session.session, o.seq, o.t, o.scene, o.name, o.target.rawValue, to: &out)
        }
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
