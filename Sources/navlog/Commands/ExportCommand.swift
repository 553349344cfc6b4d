import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// `navlog export …`: flat rows for a warehouse (docs/commands.md). A command
/// group: each kind of row is a subcommand.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export flat rows for a warehouse (DuckDB, Spark, ClickHouse) or a stack as a SwiftUI NavigationPath.",
        discussion: """
            Examples:
              navlog export screens store/ > screens.csv
              navlog export events store/ --format csv --redact --redact-key "$KEY" \\
                  > events.csv
              navlog export swiftui-path s-1.navlog --stack home > path.json
              navlog export log store/ --session s-000001 -o s-000001.navlog
              navlog export screens store/ --with-marks --output screens/ --partition-by day
            """,
        subcommands: [ExportScreensCommand.self, ExportEventsCommand.self, ExportSwiftUIPathCommand.self, ExportLogCommand.self]
    )
}

/// What every export reads and how: inputs, format and redaction.
struct ExportOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("Logs, stores (directories of .navlog files) and NDJSON files.", valueName: "logs-or-stores"), completion: .file())
    var inputs: [String]

    @Option(help: ArgumentHelp("csv (RFC 4180, \\n line ends) or ndjson.", valueName: "format"))
    var format: ExportFormat = .csv

    @Flag(help: "Drop meta, route data and unknown fields; replace route ids with a keyed hash (HMAC-SHA-256).")
    var redact = false

    @Option(help: ArgumentHelp("The key of --redact's hash (else $NAVLOG_REDACT_KEY).", valueName: "key"))
    var redactKey: String?

    @Option(help: ArgumentHelp("Write gzip part files (part-NNNNN.csv.gz or .ndjson.gz) into this new or empty directory instead of standard output.", valueName: "dir"), completion: .directory)
    var output: String?

    @Option(help: ArgumentHelp("day: Hive-style partitions DIR/dt=YYYY-MM-DD/ by the UTC day of each row's t (with --output).", valueName: "unit"))
    var partitionBy: ExportPartition?

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("export: give at least one log, store or NDJSON file") }
        try InputOutputChecks.standardInputOnce(inputs)
        if redactKey != nil && !redact { throw ValidationError("export: --redact-key goes with --redact") }
        if partitionBy != nil && output == nil { throw ValidationError("export: --partition-by goes with --output DIR") }
        if redact && key == nil {
            throw ValidationError("export: --redact needs a key: --redact-key KEY or the environment variable NAVLOG_REDACT_KEY")
        }
    }

    /// The redaction key: `--redact-key`, else `$NAVLOG_REDACT_KEY` (non-empty).
    var key: String? {
        if let redactKey, !redactKey.isEmpty { return redactKey }
        if let env = getenv("NAVLOG_REDACT_KEY"), env.pointee != 0 { return String(cString: env) }
        return nil
    }

    var redactor: EventRedactor? { redact ? key.map { EventRedactor(key: Array($0.utf8)) } : nil }
}


extension ExportOptions {
    /// Writes `header` and the rows of `make` for every event of the inputs
    /// to standard output or, with `--output`, as gzip part files there.
    func write<Rows: ExportRows>(header: [UInt8], _ make: @escaping @Sendable () -> Rows) throws {
        let stream = try SessionStream(commandLine: inputs)
        guard let output else {
            Output.write(header)
            try stream.writeRows(redactor: redactor, to: { Output.write($0) }, make)
            return
        }
        try InputOutputChecks.refuseOverwriting(output, option: "--output", inputs: inputs)
        let byDay = partitionBy == .day
        let parts: PartitionedOutput
        do {
            parts = try PartitionedOutput(directory: output, fileExtension: format.rawValue, header: header, byDay: byDay)
        } catch {
            throw CLIFailure.trouble(error.description)
        }
        var unread: SessionStreamError?
        do {
            try stream.writeRows(redactor: redactor, to: { parts.write(frames: $0) }) { PartitionedRows(make(), byDay: byDay) }
        } catch {
            unread = error
        }
        // The parts of what was read are finished (whole gzip files) before an input's failure is reported.
        do { try parts.finish() } catch { throw CLIFailure(error) }
        if let unread { throw unread }
    }
}
