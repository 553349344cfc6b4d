import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog export events`: every event, as canonical NDJSON or flat CSV.
struct ExportEventsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Every event, as canonical NDJSON or as flat CSV rows.",
        discussion: """
            NDJSON lines are the canonical form (what `navlog cat` prints). CSV columns: \
            session,seq,t,scene,type,cause,container,value,screen,json — container is the \
            stack, tab, split or modal the event names; value what it set (a pushed screen \
            name, a mark's label, a URL, ...); screen the new visible screen when the event \
            changed it; json the canonical line. With --redact, meta, route data and unknown \
            fields are dropped and route ids become h- and 16 hex digits of HMAC-SHA-256.

            Examples:
              navlog export events store/ --format ndjson > events.ndjson
              NAVLOG_REDACT_KEY=... navlog export events store/ --format csv --redact \\
                  > events.csv
            """
    )

    @OptionGroup var options: ExportOptions

    func run() throws {
        let ndjson = options.format == .ndjson
        var csv = CSVWriter()
        if !ndjson { csv.row(EventCSVColumns.header) }
        try options.write(header: csv.bytes) { EventRows(ndjson: ndjson) }
    }
}

/// Rows of `export events`: the canonical line, or the flat CSV row.
struct EventRows: ExportRows {
    let ndjson: Bool
    private var csv = CSVWriter()
    private var scratch = CanonicalWriter()

    init(ndjson: Bool) { self.ndjson = ndjson }

    /// An event's rows are its own (and its screen view's).
    static var rowsFollowSessions: Bool { true }

    mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8]) {
        if ndjson {
            scratch.reset()
            scratch.write(event)
            out += scratch.bytes
            out.append(0x0A)
        } else {
            csv.reset()
            EventCSVColumns.write(event, screen: view?.screen, to: &csv, scratch: &scratch)
            out += csv.bytes
        }
    }
}
