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
        var file = log
        let reader: LogReader
        if session != nil || SessionLookup.isStore(log) {
            switch try SessionInput.open(log, session: session) {
            case .log(let opened, let path): (reader, file) = (opened, path)
            case .stored(let stored): return try printStored(stored)
            case .ndjson: throw CLIFailure.trouble("\(SessionInput.displayName(log)): not a .navlog log or a store")
            }
        } else {
            do { reader = try LogReader(path: log) } catch { throw CLIFailure(error) }
        }
        let summary = LogSummary(file: file, reader: reader)
        if json {
            Output.line(summary.jsonValue.canonicalText)
        } else {
            Self.printAligned(summary.lines)
        }
        if let damage = reader.damage, !damage.isTornTail {
            throw CLIFailure.no("\(file): damaged at byte \(damage.offset); run 'navlog verify'")
        }
    }

    /// `key: value` lines, values aligned.
    static func printAligned(_ lines: [(String, String)]) {
        let width = lines.map(\.0.count).max() ?? 0
        for (key, value) in lines {
            Output.line(key + ":" + String(repeating: " ", count: width - key.count + 1) + value)
        }
    }

    /// The facts of a session of a segment store (schemas/info.schema.json, the store form).
    private func printStored(_ stored: StoredSession) throws {
        let figures: StoredSession.Summary
        do { figures = try stored.summary() } catch { throw CLIFailure(SessionLookupError.segments(error)) }
        let summary = StoredSessionSummary(store: stored.store, session: stored.id, figures: figures)
        if json {
            Output.line(summary.jsonValue.canonicalText)
        } else {
            Self.printAligned(summary.lines)
        }
    }
}
