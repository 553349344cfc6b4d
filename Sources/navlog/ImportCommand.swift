import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog import FORMAT INPUT… --store DIR`: navigation data in other
/// shapes into a store of per-session logs (schemas/imports.md). A command
/// group: one subcommand per format.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import navigation data from other tools into a store of per-session logs.",
        discussion: """
            Formats: swiftui-path (NavigationPath.CodableRepresentation), react-navigation \
            (NDJSON of state snapshots), ga4 (BigQuery export of GA4 / Firebase events), csv \
            (Amplitude, Mixpanel and similar event streams). Each record is stored or rejected \
            as with ingest: rejected records are reported as file:line: reason (the first 20 on \
            standard error, all counted), copied verbatim with --rejects, and make the exit \
            status 1. Logs that exist are continued. The mappings are in schemas/imports.md.

            Examples:
              navlog import ga4 events-20261120.json --store logs
              navlog import csv export.csv --store logs --session user_id,session_id --time event_time --event event_type --screens 'screen:*'
            """,
        subcommands: [ImportSwiftUIPathCommand.self, ImportReactNavigationCommand.self, ImportGA4Command.self, ImportCSVCommand.self]
    )
}

/// What every import takes: inputs, the store, where rejects go.
struct ImportOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Input files (- for standard input).", valueName: "input"))
    var inputs: [String]

    @Option(help: ArgumentHelp("The store: a directory of .navlog files (created when absent).", valueName: "dir"))
    var store: String

    @Option(help: ArgumentHelp("Where to copy rejected records, verbatim (a CSV keeps its header).", valueName: "file"))
    var rejects: String?

    @Option(name: .customLong("max-open"), help: ArgumentHelp("Logs open for writing at once.", valueName: "n"))
    var maxOpen: Int = 128

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("give at least one input (- for standard input)") }
        if maxOpen < 1 { throw ValidationError("--max-open must be at least 1") }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input (-) can be read only once") }
    }

    /// Opens the store, runs `body` with the reporting callbacks, prints the
    /// summary and maps the outcome to the exit status (1 when anything was rejected).
    func run(
        _ body: (StoreImporter, _ onHeader: ([UInt8]) -> Void, _ onReject: (StoreImporter.Rejection) -> Void,
                 _ onProgress: (StoreImporter.Progress) -> Void) throws(StoreImporter.Failure) -> StoreImporter.Report
    ) throws {
        let target: Store
        do { target = try Store(directory: store, create: true) } catch { throw CLIFailure.trouble(error.description) }
        var rejectsFile: BufferedFile?
        if let rejects {
            do { rejectsFile = try BufferedFile(creating: rejects) } catch { throw CLIFailure.trouble(error.message) }
        }
        let progress = ProgressBar(totalBytes: ProgressBar.totalSize(of: inputs))
        var shown = 0
        var rejectsError: String?
        var headerWritten = false
        func keep(_ bytes: [UInt8], newline: Bool) {
            guard let file = rejectsFile, rejectsError == nil else { return }
            do throws(BufferedFile.Failure) {
                try file.write(bytes)
                if newline { try file.write([0x0A]) }
            } catch { rejectsError = error.message }
        }
        let importer = StoreImporter(store: target, options: StoreIngester.Options(maxOpenWriters: maxOpen))
        let report: StoreImporter.Report
        do throws(StoreImporter.Failure) {
            report = try body(importer, { header in
                if !headerWritten { keep(header, newline: false) }
                headerWritten = true
            }, { rejection in
                shown += 1
                if shown <= SessionInput.rejectsShown {
                    progress?.clear()
                    Output.error(rejection.description)
                }
                if let bytes = rejection.bytes { keep(bytes, newline: bytes.last != 0x0A) }
            }, { progress?.draw($0) })
        } catch {
            progress?.clear()
            try? rejectsFile?.close()
            throw CLIFailure.trouble(error.description)
        }
        progress?.clear()
        if let file = rejectsFile {
            do { try file.close() } catch { rejectsError = rejectsError ?? error.message }
        }
        if let rejectsError { throw CLIFailure.trouble(rejectsError) }
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        Output.line("stored \(plural(report.stored, "event")) of \(plural(report.sessions, "session")) (\(report.newLogs) new) "
                    + "from \(plural(report.records, "record")) in \(target.directory); \(plural(report.rejected, "record")) rejected")
        if report.rejected > 0 {
            let more = report.rejected > SessionInput.rejectsShown ? " (\(report.rejected - SessionInput.rejectsShown) not shown)" : ""
            let kept = rejects.map { "; kept in \($0)" } ?? ""
            throw CLIFailure.no("\(plural(report.rejected, "record")) rejected\(more)\(kept)")
        }
    }
}
