import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog diff A B [--at SPEC] [--json]`: the difference of two states (docs/commands.md).
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Show how the navigation states of two sessions differ.",
        discussion: """
            Compares the two states at SPEC (N, an RFC 3339 instant, or end; the default): per \
            scene, the tab selection, each stack's common prefix and the two differing tails \
            (-A +B), split columns, modals and the size class. Exit 0 when the states are equal \
            (their scenes), 1 when they differ, 2 on trouble.

            A log's state comes from its last checkpoint before SPEC and the blocks after it, \
            so a damaged block before that checkpoint is not read. Then one line on standard \
            error names the logs whose blocks were not all read; with --check-blocks every \
            block's checksums are checked first (the whole files are read, not decompressed) \
            and damage is exit 1, naming the file and byte offset.

            A side that is a store is one of its sessions: --session ID picks it on both \
            sides (a log side must hold that session; NDJSON that holds several gives it), \
            --session-a ID and --session-b ID one side each.

            Examples:
              navlog diff run-a.navlog run-b.navlog
              navlog diff run-a.navlog run-b.ndjson --at 120 --json
              navlog diff store/ run-b.navlog --session-a s-000042 --at 20
              navlog diff store/ store/ --session-a s-000001 --session-b s-000002
            """
    )

    @Argument(help: "The first session: a .navlog log, NDJSON (- for standard input) or a store.", completion: .file())
    var a: String

    @Argument(help: "The second session: a .navlog log, NDJSON or a store.", completion: .file())
    var b: String

    @Option(name: .long, help: ArgumentHelp("Where in both sessions: N, an RFC 3339 instant, or end.", valueName: "SPEC"))
    var at: String = "end"

    @Flag(name: .long, help: "Print the difference as JSON (schemas/diff.schema.json).")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Which session of each side (a store, or NDJSON that holds several).", valueName: "id"))
    var session: String?

    @Option(name: .customLong("session-a"), help: ArgumentHelp("Which session of A (overrides --session).", valueName: "id"))
    var sessionA: String?

    @Option(name: .customLong("session-b"), help: ArgumentHelp("Which session of B (overrides --session).", valueName: "id"))
    var sessionB: String?

    @OptionGroup var colorOptions: ColorOptions
    @OptionGroup var blockCheck: BlockCheckOptions

    func validate() throws {
        try InputOutputChecks.standardInputOnce([a, b])
    }

    func run() throws {
        let spec: StateSpec
        do { spec = try StateSpec(parsing: at) } catch { throw CLIFailure.trouble("--at: \(error)") }
        let blocks = BlockCheck(blockCheck)
        let stateA = try state(of: a, session: sessionA ?? session, at: spec, option: "--session-a", blocks: blocks)
        let stateB = try state(of: b, session: sessionB ?? session, at: spec, option: "--session-b", blocks: blocks)
        let diff = StateDiff(stateA, stateB)
        if json {
            Output.line(diff.jsonValue(a: (a, stateA), b: (b, stateB), at: spec).canonicalText)
        } else {
            Output.write(DiffText(diff: diff, style: .forStandardOutput).text)
        }
        blocks.noteUnread()
        if !diff.isEmpty { Self.exitAnswerNo() }
    }

    /// One side's state at `spec`, its blocks checked or noted first.
    private func state(of path: String, session: String?, at spec: StateSpec, option: String,
                       blocks: BlockCheck) throws -> NavigationState {
        let opened = try OneSession.opened(path, session: session, option: option)
        try blocks.prepare(opened)
        return try reading { () throws(OneSessionError) in try opened.state(at: spec) }
    }
}

extension ParsableCommand {
    /// Ends the process with status 1 ("the answer is no") after the
    /// output, with nothing on standard error: a difference is an answer,
    /// not an error.
    static func exitAnswerNo() -> Never {
        Output.flushStandardOutput()
        Glibc_exit(1)
    }
}
