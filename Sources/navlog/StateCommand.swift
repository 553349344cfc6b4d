import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog state LOG [--at SPEC] [--json]`: the state at a point (contract §2, §4).
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the navigation state of a session at a point in time.",
        discussion: """
            SPEC is N (after every event with seq ≤ N; 0 is the empty state), an RFC 3339 \
            instant (after every event with t ≤ it), or end (the default).

            Examples:
              navlog state session.ndjson
              navlog state session.ndjson --at 42 --json
              navlog state session.ndjson --at 2026-11-20T10:00:05Z
            """
    )

    @Argument(help: "A session log (.navlog), or an NDJSON file of events (- for standard input).")
    var log: String

    @Option(name: .long, help: ArgumentHelp("Where in the session: N, an RFC 3339 instant, or end.", valueName: "SPEC"))
    var at: String = "end"

    @Flag(name: .long, help: "Print the contract's JSON (keys sorted) instead of a tree.")
    var json = false

    @Option(name: .long, help: "Which session, when the input holds several.")
    var session: String?

    func run() throws {
        let spec: StateSpec
        do { spec = try StateSpec(parsing: at) } catch { throw CLIFailure.trouble("--at: \(error)") }
        let state = try SessionInput.state(of: log, session: session, at: spec)
        if json {
            Output.line(state.jsonText)
        } else {
            Output.write(StateTree(state: state, style: .forStandardOutput).text)
        }
    }
}
