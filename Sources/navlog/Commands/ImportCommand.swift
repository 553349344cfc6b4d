import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog import FORMAT INPUT… --store DIR`: navigation data in other
/// shapes into a segment store (schemas/imports.md). A command
/// group: one subcommand per format.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import navigation data from other tools into a store.",
        discussion: """
            Formats: swiftui-path (NavigationPath.CodableRepresentation), react-navigation \
            (NDJSON of state snapshots), ga4 (BigQuery export of GA4 / Firebase events), csv \
            (Amplitude, Mixpanel and similar event streams). Each record is stored or rejected \
            as with ingest: rejected records are reported as file:line: reason (the first 20 on \
            standard error, all counted), copied verbatim with --rejects, and make the exit \
            status 1. Events are numbered within the import (the files of one run together), so \
            importing the same files again stores nothing (every event already stored); a session \
            the store holds from another input is not continued. The mappings are in schemas/imports.md. \
            While input comes in, what was stored is committed at least every --commit-interval \
            milliseconds. Ctrl-C (or SIGTERM) stops the import after the records read so far (checked \
            every 1,024 records, and every 0.1 s while a pipe's writer is quiet): they are stored or rejected, the store is \
            closed, and the summary says the last line read (exit 130, or 143); running the same \
            import again finishes it, what was stored being already stored. \
            With --json the summary is one JSON object (schemas/import.schema.json).

            Examples:
              navlog import ga4 events-20261120.json --store logs
              navlog import csv export.csv --store logs --session user_id,session_id \\
                  --time event_time --event event_type --screens 'screen:*'
            """,
        subcommands: [ImportSwiftUIPathCommand.self, ImportReactNavigationCommand.self, ImportGA4Command.self, ImportCSVCommand.self]
    )
}

extension StoreWriteOptions {
    /// For an import: opens the store, runs `body` with the reporting callbacks, prints the
    /// summary and maps the outcome to the exit status (1 when anything was rejected).
    func run(
        _ body: (StoreImporter, _ onHeader: ([UInt8]) -> Void, _ onReject: (StoreImporter.Rejection) -> Void,
                 _ onProgress: (StoreImporter.Progress) -> Void) throws(StoreImporter.Failure) -> StoreImporter.Report
    ) throws {
        let target = try openStore()
        let reporter = try RejectionReporter(self)
        var headerWritten = false
        StopSignals.hold()
        let importer = StoreImporter(store: target, options: StoreIngester.Options(commitInterval: commitInterval),
                                     shouldStop: { StopSignals.pending() != nil })
        let report: StoreImporter.Report
        do throws(StoreImporter.Failure) {
            report = try body(importer, { header in
                if !headerWritten { reporter.keep(header, newline: false) }
                headerWritten = true
            }, { reporter.reject($0.description, bytes: $0.bytes) }, { reporter.progress?.draw($0) })
        } catch {
            reporter.abandon()
            throw CLIFailure.trouble(error.description)
        }
        try report.finish(store: target.path, reporter: reporter, json: json)
    }
}
