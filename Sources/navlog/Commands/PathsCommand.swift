import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog paths`: what users do next, where they came from.
struct PathsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paths",
        abstract: "The most frequent screen-to-screen transitions, or screen paths after or before a screen.",
        discussion: """
            Without --after or --before: the most frequent transitions between two consecutive \
            screen views of a scene. With --after S: the --depth screens that follow each view \
            of a screen matching S (a glob, * the only wildcard); with --before S: the ones that \
            lead to it. A path cut short by the end (start) of its scene ends in (end) (starts \
            with (start)). Every matching view counts; the sessions column says in how many \
            sessions a path occurred.

            Examples:
              navlog paths store/ --top 20
              navlog paths store/ --after 'Recipe/*' --depth 2
              navlog paths store/ --before 'Checkout' --format csv
            """
    )

    @Argument(help: ArgumentHelp("Logs, stores (segment stores or directories of .navlog files) and NDJSON files.", valueName: "logs-or-stores"), completion: .file())
    var inputs: [String]

    @Option(help: ArgumentHelp("Paths after each view of a screen matching this glob.", valueName: "screen"))
    var after: String?

    @Option(help: ArgumentHelp("Paths leading to each view of a screen matching this glob.", valueName: "screen"))
    var before: String?

    @Option(help: "How many rows.")
    var top: Int = 10

    @Option(help: "Screens after (before) the matching one.")
    var depth: Int = 3

    @Option(help: ArgumentHelp("The output format (default: table).", valueName: "format"))
    var format: PathsFormat?

    @Flag(name: .long, help: "Print JSON: the same as --format json.")
    var json = false

    @OptionGroup var colorOptions: ColorOptions

    func validate() throws {
        if inputs.isEmpty { throw ValidationError("paths: give at least one log, store or NDJSON file") }
        try InputOutputChecks.standardInputOnce(inputs)
        if after != nil && before != nil { throw ValidationError("paths: give --after or --before, not both") }
        if top < 1 { throw ValidationError("paths: --top must be 1 or more, got \(top)") }
        if depth < 1 { throw ValidationError("paths: --depth must be 1 or more, got \(depth)") }
        if json, let format, format != .json { throw ValidationError("paths: --json is --format json; it cannot go with --format \(format.rawValue)") }
    }

    func run() throws {
        let mode: ScreenPathTally.Mode
        if let after { mode = .after(GlobPattern(after)) } else if let before { mode = .before(GlobPattern(before)) } else { mode = .transitions }
        let depth = self.depth
        let tally = try SessionStream(commandLine: inputs).tally { ScreenPathTally(mode: mode, depth: depth) }
        let report = ScreenPathReport(tally, top: top)
        switch json ? .json : format ?? .table {
        case .csv: Output.write(report.csv)
        case .json: Output.line(report.json)
        case .table: Output.write(table(report))
        }
        Output.flushStandardOutput()
        if report.rows.isEmpty {
            if tally.sessions == 0 {
                Output.nothingMatched("paths: no sessions in the inputs")
            } else if let glob = after ?? before {
                Output.nothingMatched("paths: no screen view matches \(JSONValue.string(glob).canonicalText)")
            } else {
                Output.nothingMatched("paths: no transitions (no scene has two screen views)")
            }
        }
    }

    private func table(_ report: ScreenPathReport) -> String {
        let style = StateTree.Style.forStandardOutput
        let tally = report.tally
        var heading: String
        switch tally.mode {
        case .transitions: heading = "\(FunnelText.grouped(tally.total)) transitions"
        case .after(let glob): heading = "\(FunnelText.grouped(tally.total)) views of \(glob.description), and the \(tally.depth) screens after each"
        case .before(let glob): heading = "\(FunnelText.grouped(tally.total)) views of \(glob.description), and the \(tally.depth) screens before each"
        }
        heading += " in \(FunnelText.grouped(tally.sessions)) session\(tally.sessions == 1 ? "" : "s")"
        var out = style.paint(heading, "1") + "\n"
        if report.rows.isEmpty { return out + "(none)\n" }
        let paths = report.rows.map { ReadableText.escaped(ScreenPathReport.joined($0.path)) }
        let width = max(4, paths.map(\.count).max() ?? 0)
        out += style.paint(FunnelTable.pad("rank", 4, right: true) + "  " + FunnelTable.pad("path", width) + "     count  sessions   share", "2") + "\n"
        let scale = max(1, report.rows.first?.count ?? 1)
        for (i, row) in report.rows.enumerated() {
            var line = FunnelTable.pad(String(i + 1), 4, right: true) + "  " + FunnelTable.pad(paths[i], width)
            line += "  " + FunnelTable.pad(FunnelText.grouped(row.count), 8, right: true)
            line += "  " + FunnelTable.pad(FunnelText.grouped(row.sessions), 8, right: true)
            line += "  " + FunnelTable.pad(report.share(row).map(FunnelText.percent) ?? "", 6, right: true)
            line += "  " + style.paint(FunnelTable.bar(row.count, of: scale), "36")
            out += line + "\n"
        }
        return out
    }
}
