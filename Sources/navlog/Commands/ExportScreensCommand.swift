import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog export screens`: one row per screen view (docs/state.md, docs/commands.md).
struct ExportScreensCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "screens",
        abstract: "One row per screen view: session,seq,t,scene,screen.",
        discussion: """
            A screen view is emitted each time an event changes its scene's visible screen \
            (docs/state.md). CSV columns are exactly session,seq,t,scene,screen; NDJSON lines \
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
