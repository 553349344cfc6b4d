import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog state LOG [--at SPEC] [--json]`: the state at a point (docs/state.md, docs/commands.md).
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Print the navigation state of a session at a point in time.",
        discussion: """
            SPEC is N (after every event with seq <= N; 0 is the empty state), an RFC 3339 \
            instant (after every event with t <= it), or end (the default).

            A session of a store is named with --session: `navlog state STORE --session ID`. \
            In a segment store its state at N or end starts from its last checkpoint before \
            that point (at most K events are folded), not from its first event.

            Examples:
              navlog state session.ndjson
              navlog state session.ndjson --at 42 --json
              navlog state session.ndjson --at 2026-11-20T10:00:05Z
              navlog state store/ --session s-000042 --at 20
            """
    )

    @OptionGroup var point: SessionPointOptions

    @Flag(name: .long, help: "Print the state as JSON (keys sorted; docs/state.md) instead of a tree.")
    var json = false

    @OptionGroup var colorOptions: ColorOptions

    func run() throws {
        let spec = try point.spec()
        let opened = try OneSession.opened(point.log, session: point.session)
        let state = try reading { () throws(OneSessionError) in try opened.state(at: spec) }
        if json {
            Output.line(state.jsonText)
        } else {
            Output.write(StateTree(state: state, style: .forStandardOutput).text)
        }
    }
}
