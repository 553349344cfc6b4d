import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog funnel LOGS_OR_STORES… --step P …`: how many sessions reach each
/// step of a funnel (docs/commands.md).
struct FunnelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "funnel",
        abstract: "How many sessions reach each step of a funnel, and how long each step takes.",
        discussion: """
            A step is a glob over screen names (`Recipe/*`, `tab:search`, `*`), `mark:GLOB` \
            over mark labels or `url:GLOB` over deep-link URLs. A session reaches step k when, \
            from some occurrence of step 1, it has occurrences of steps 2...k in order (each the \
            earliest after the previous one), all within --within of the start; its best start \
            counts. Inputs are .navlog logs, stores (segment stores or directories of logs) and NDJSON files.

            --order strict: each step must be the very next screen view (the next mark for a \
            mark: step, the next deep link for a url: step). --exclude P: a session with an \
            occurrence of P between two consecutive steps does not get past the first of them.

            Examples:
              navlog funnel store/ --step 'tab:browse' --step 'Recipe/*' \\
                  --step mark:purchase
              navlog funnel store/ --step 'Recipe/*' --step mark:purchase --within 10m \\
                  --by app.version --format csv
              navlog funnel sessions.ndjson --step 'url:*' --step 'Recipe/*' \\
                  --svg funnel.svg
            """
    )

    @Argument(help: ArgumentHelp("Logs, stores (segment stores or directories of .navlog files) and NDJSON files.", valueName: "logs-or-stores"), completion: .file())
    var inputs: [String]

    @Option(name: .customLong("step"), help: ArgumentHelp("A step pattern, in order (repeat for each step).", valueName: "pattern"))
    var steps: [String] = []

    @Option(help: ArgumentHelp("All steps within this long of the start: 90s, 10m, 1h30m, 1.5s (units ms s m h d).", valueName: "duration"))
    var within: String?

    @Option(help: ArgumentHelp("ordered (steps in order, anything between) or strict (each step the very next screen view).", valueName: "mode"))
    var order: FunnelOrder = .ordered

    @Option(help: ArgumentHelp("A session with an occurrence of this pattern between two steps does not convert past the first (repeatable).", valueName: "pattern"))
    var exclude: [String] = []

    @Option(help: ArgumentHelp("Segment by a field of the first session.start, as a dotted path (app.version, device.idiom).", valueName: "field"))
    var by: String?

    @Option(help: ArgumentHelp("Only sessions that started at or after this instant (RFC 3339).", valueName: "time"))
    var from: String?

    @Option(help: ArgumentHelp("Only sessions that started at or before this instant (RFC 3339).", valueName: "time"))
    var to: String?

    @Option(help: ArgumentHelp("The output format (default: table).", valueName: "format"))
    var format: FunnelFormat?

    @Flag(name: .long, help: "Print JSON: the same as --format json.")
    var json = false

    @Option(help: ArgumentHelp("Also write the funnel chart as SVG to this file.", valueName: "file"), completion: .file(extensions: ["svg"]))
    var svg: String?

    @Option(help: ArgumentHelp("Instead of the counts, list the sessions that reached exactly K steps (left after step K), as JSON.", valueName: "k"))
    var dropoffs: Int?

    @OptionGroup var colorOptions: ColorOptions

    func validate() throws {
        if steps.isEmpty { throw ValidationError("funnel: give at least one --step") }
        if inputs.isEmpty { throw ValidationError("funnel: give at least one log, store or NDJSON file") }
        try InputOutputChecks.standardInputOnce(inputs)
        if let within, within.hasPrefix("-") { throw ValidationError("funnel: --within must be positive, got \(within)") }
        if let within, FunnelWindow(parsing: within) == nil {
            throw ValidationError("funnel: --within takes a duration such as 90s, 10m, 1h30m or 1.5s (units ms s m h d), got \(within)")
        }
        if let dropoffs, dropoffs < 1 {
            throw ValidationError("funnel: --dropoffs takes how many steps the sessions reached (1 or more), got \(dropoffs)")
        }
        if dropoffs != nil && (by != nil || from != nil || to != nil || svg != nil || (format != nil && format != .json)) {
            throw ValidationError("funnel: --dropoffs lists sessions as JSON; it cannot go with --by, --from, --to, --svg or --format other than json")
        }
        if json, let format, format != .json { throw ValidationError("funnel: --json is --format json; it cannot go with --format \(format.rawValue)") }
        for (name, value) in [("--from", from), ("--to", to)] {
            if let value, Timestamp(rfc3339: value) == nil { throw ValidationError("funnel: \(name): \(Timestamp.refusal(rfc3339: value))") }
        }
        if let by, by.isEmpty || by.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty) {
            throw ValidationError("funnel: --by takes a dotted path such as app.version, got \"\(by)\"")
        }
    }

    func run() throws {
        let funnel = Funnel(steps: steps.map(FunnelStep.init), window: within.flatMap(FunnelWindow.init(parsing:)),
                            order: order, exclusions: exclude.map(FunnelStep.init))
        let path = by.map { $0.split(separator: ".").map(String.init) }
        let from = from.flatMap(Timestamp.init(rfc3339:))
        let to = to.flatMap(Timestamp.init(rfc3339:))
        if let dropoffs {
            let left = try SessionStream(commandLine: inputs).tally { FunnelDropoffs(funnel: funnel, reached: dropoffs) }
            Output.line(left.json)
            return
        }
        if let svg { try InputOutputChecks.refuseOverwriting(svg, option: "--svg", inputs: inputs) }
        let tallies = try SessionStream(commandLine: inputs)
            .tally { FunnelSegments(funnel: funnel, by: path, startedFrom: from, startedTo: to) }.tallies
        let report = FunnelReport(funnel: funnel, by: by, tallies: tallies)
        if let svg {
            do { try OutputFile.write(FunnelChart(report).svg, to: svg) } catch { throw CLIFailure.trouble(error.description) }
        }
        switch json ? .json : format ?? .table {
        case .csv: Output.write(report.csv)
        case .json: Output.line(report.json)
        case .svg: Output.write(FunnelChart(report).svg)
        case .table: Output.write(FunnelTable(report: report, style: .forStandardOutput).text)
        }
        Output.flushStandardOutput()
        noteWhatMatchedNothing(tallies)
    }

    /// Why a funnel is empty, when it is: no sessions, a step (at any
    /// position) that no event of any session matches, or a `--by` field
    /// that no session has.
    private func noteWhatMatchedNothing(_ tallies: [String: FunnelTally]) {
        if tallies.values.allSatisfy({ $0.sessions == 0 }) {
            Output.nothingMatched(from != nil || to != nil ? "funnel: no session started within --from/--to"
                                                           : "funnel: no sessions in the inputs")
            return
        }
        for k in steps.indices where k < 64 && tallies.values.allSatisfy({ $0.matching[k] == 0 }) {
            Output.nothingMatched("funnel: no session has an occurrence of step \(k + 1), \(JSONValue.string(steps[k]).canonicalText)")
        }
        if let by, tallies.keys.allSatisfy(\.isEmpty) {
            Output.nothingMatched("funnel: no session has a value for --by \(by) in its session.start")
        }
    }
}
