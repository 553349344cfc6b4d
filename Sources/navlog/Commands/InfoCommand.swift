import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog info LOG`: what a log holds and how it is stored (docs/commands.md).
/// `navlog info STORE --session ID`: what a store holds of one session.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a log's events, seq and time range, sizes, compression, blocks and checkpoints.",
        discussion: """
            Reads only the index (the footer of a closed log); no event is decompressed.

            With a store and --session: that session's events, seq and time range, content \
            bytes, and the commits and checkpoints holding it (a segment store; the blocks \
            holding its events are read), or its log's facts (a store of .navlog files).

            Example:
              navlog info s-1.navlog
              navlog info s-1.navlog --json
              navlog info store/ --session s-000001
            """
    )

    @Argument(help: "The .navlog file, or a store with --session.", completion: .file())
    var log: String

    @Option(name: .long, help: ArgumentHelp("Which session of a store.", valueName: "id"))
    var session: String?

    @Flag(name: .long, help: "Print the facts as one JSON object (schemas/info.schema.json).")
    var json = false

    func run() throws {
        let opened = try OneSession.opened(log, session: session, form: .logOrStoreRefusingNDJSON)
        let summary = try reading { () throws(OneSessionError) in try opened.summary() }
        if json {
            Output.line(summary.jsonValue.canonicalText)
        } else {
            Self.printAligned(summary.lines)
        }
        if let damage = summary.damage { throw CLIFailure.no(damage) }
    }

    /// `key: value` lines, values aligned.
    static func printAligned(_ lines: [(String, String)]) {
        let width = lines.map(\.0.count).max() ?? 0
        for (key, value) in lines {
            Output.line(key + ":" + String(repeating: " ", count: width - key.count + 1) + value)
        }
    }
}
