import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog bisect A B [--json] [--align position|seq]` and
/// `navlog bisect LOG --until PATTERN` (docs/commands.md, docs/state.md).
struct BisectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bisect",
        abstract: "Find the first event after which two sessions' states differ.",
        discussion: """
            Position k compares the states after the first k events of each session \
            (docs/state.md): the first k where they differ is printed with both events (seq and time), the \
            events leading up to it and the states' difference. When every shared position \
            agrees and the lengths differ, the divergence is at the shorter length + 1. Exit 0 \
            when the sessions never diverge, 1 when they do, 2 on trouble.

            Two logs are searched through their block index (state-chain hashes and content \
            checksums) and checkpoints, decompressing a few blocks; NDJSON inputs, --align seq, \
            and logs whose blocks do not line up are folded. Two sessions of segment stores \
            (STORE --session ID; --session-a/--session-b for different ids) are searched \
            through their checkpoints' chain hashes, then folded from the last checkpoint \
            before they part. --stats tells which and how many blocks were decompressed.

            Blocks the index skips are not read, so a damaged one among them is not noticed: \
            one line on standard error then names the logs whose blocks were not all read. \
            With --check-blocks the checksums of every block of both logs are checked first \
            (the whole files are read and hashed, not decompressed: about 0.2 s for two logs of \
            10M events, where the answer alone takes tens of milliseconds) and damage is exit 1, \
            naming the file and byte offset.

            With --align seq, point s compares the states after every event with seq <= s.

            With --until PATTERN and one input: the first event after which the visible screen \
            of its scene matches PATTERN (a glob, * the only wildcard). Exit 0 found, 1 not.

            Examples:
              navlog bisect run-a.navlog run-b.navlog
              navlog bisect run-a.navlog run-b.navlog --json
              navlog bisect session.navlog --until 'Recipe/*'
              navlog bisect production.ndjson replay.ndjson --session s-42
              navlog bisect store/ run-a.navlog --session-a s-000042
              navlog bisect store/ store/ --session-a s-000001 --session-b s-000002
            """
    )

    @Argument(help: "Two sessions (.navlog logs, NDJSON, - for standard input, or stores with --session), or one with --until.", completion: .file())
    var inputs: [String]

    @Flag(name: .long, help: "Print the result as JSON (schemas/bisect.schema.json).")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Compare by event position (default) or by seq.", valueName: "position|seq"), completion: .list(["position", "seq"]))
    var align: BisectAlignment = .position

    @Option(name: .long, help: ArgumentHelp("With one input: the first event after which the screen matches this glob.", valueName: "pattern"))
    var until: String?

    @Flag(name: .long, help: "Also print how the answer was found and how many blocks were decompressed.")
    var stats = false

    @Option(name: .long, help: ArgumentHelp("Events shown before the divergence.", valueName: "n"))
    var context: Int = 5

    @Option(name: .long, help: ArgumentHelp("Which session of each input (a store, or an input that holds several).", valueName: "id"))
    var session: String?

    @Option(name: .customLong("session-a"), help: ArgumentHelp("Which session of A (overrides --session).", valueName: "id"))
    var sessionA: String?

    @Option(name: .customLong("session-b"), help: ArgumentHelp("Which session of B (overrides --session).", valueName: "id"))
    var sessionB: String?

    @OptionGroup var colorOptions: ColorOptions
    @OptionGroup var blockCheck: BlockCheckOptions

    func validate() throws {
        if until != nil {
            guard inputs.count == 1 else { throw ValidationError("--until takes exactly one input") }
            if sessionA != nil || sessionB != nil { throw ValidationError("with --until, pick the session with --session") }
        } else {
            guard inputs.count == 2 else { throw ValidationError("give two inputs A and B (or one with --until PATTERN)") }
            try InputOutputChecks.standardInputOnce(inputs)
        }
        guard context >= 0 else { throw ValidationError("--context must be at least 0") }
    }

    func run() throws {
        if let until { return try runUntil(GlobPattern(until)) }
        let (a, b) = (inputs[0], inputs[1])
        let (idA, idB) = (sessionA ?? session, sessionB ?? session)
        let checked = BlockCheck(blockCheck)
        let sideA = try OneSession.opened(a, session: idA, option: "--session-a")
        let sideB = try OneSession.opened(b, session: idB, option: "--session-b", alongside: sideA)
        let search: DivergenceSearch, method: DivergenceSearch.Method
        do {
            (search, method) = try OneSession.divergence(sideA, sideB, bySeq: align == .seq, context: context,
                                                         prepare: checked.prepare)
        } catch let error as OneSessionError { throw CLIFailure(error) }
        let report = BisectReport(search: search, inputs: (a, b), align: align.rawValue, method: method)
        if json {
            Output.line(report.jsonValue.canonicalText)
        } else {
            Output.write(report.text(style: .forStandardOutput, stats: stats))
        }
        checked.noteUnread()
        if search.diverged { Self.exitAnswerNo() }
    }

    /// The single-log form: fold until the event's scene shows a matching screen.
    private func runUntil(_ pattern: GlobPattern) throws {
        let path = inputs[0]
        let opened = try OneSession.opened(path, session: session)
        let (search, blocks) = try reading { () throws(OneSessionError) in try opened.searchScreen(pattern, context: context) }
        let report = UntilReport(input: path, search: search, blocksDecompressed: blocks)
        if json {
            Output.line(report.jsonValue.canonicalText)
        } else {
            Output.write(report.text(style: .forStandardOutput, stats: stats))
        }
        if search.found == nil { Self.exitAnswerNo() }
    }
}
