import ArgumentParser
import NavLogCore

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
              duckdb -c "SELECT screen, count(*) FROM 'screens.csv' GROUP BY 1 ORDER BY 2 DESC"
            """
    )

    @OptionGroup var options: ExportOptions

    @Flag(help: "Add mark, deep-link and session rows and a kind column (for tools/funnel.sql).")
    var withMarks = false

    func run() throws {
        var out: [UInt8] = []
        out.reserveCapacity(ExportOutput.chunk + 4096)
        var csv = CSVWriter()
        var json = CanonicalWriter()
        let ndjson = options.format == "ndjson"
        if !ndjson {
            csv.row(["session", "seq", "t", "scene", "screen"] + (withMarks ? ["kind"] : []))
            out += csv.bytes
        }
        var lastSession: String?
        var seen: Set<String> = []
        func row(_ event: Event, _ screen: String, _ kind: String) {
            if ndjson {
                json.reset()
                var object: [String: JSONValue] = [
                    "session": .string(event.session), "seq": .number(String(event.seq)),
                    "t": .string(event.t.rfc3339), "scene": .string(kind == "session" ? "" : event.sceneID), "screen": .string(screen),
                ]
                if withMarks { object["kind"] = .string(kind) }
                json.write(object: object)
                out += json.bytes
                out.append(0x0A)
            } else {
                csv.reset()
                csv.field(event.session, first: true)
                csv.field(event.seq, first: false)
                json.reset()
                event.t.appendRFC3339(to: &json.bytes)
                json.bytes.withUnsafeBufferPointer { csv.field(bytes: $0, first: false) }
                csv.field(kind == "session" ? "" : event.sceneID, first: false)
                csv.field(screen, first: false)
                if withMarks { csv.field(kind, first: false) }
                csv.endRow()
                out += csv.bytes
            }
            ExportOutput.flushIfFull(&out)
        }
        try options.forEachEvent { event, view in
            if withMarks {
                if event.session != lastSession, seen.insert(event.session).inserted { row(event, "", "session") }
                lastSession = event.session
                switch event.kind {
                case .mark(let label): row(event, label, "mark")
                case .urlOpen(let url): row(event, url, "url")
                default: break
                }
            }
            if let view { row(event, view.screen, "screen") }
        }
        Output.write(out)
        Output.flushStandardOutput()
    }
}
