import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog export swiftui-path LOG --stack S [--at SPEC]`: a stack written
/// back as SwiftUI's NavigationPath.CodableRepresentation.
struct ExportSwiftUIPathCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swiftui-path",
        abstract: "Write a stack as a SwiftUI NavigationPath.CodableRepresentation.",
        discussion: """
            Prints one JSON array, top of the stack first: [tag_n, value_n, ..., tag_1, value_1], \
            each value the element's JSON as a string — what a NavigationPath decodes from, so a \
            state found by time travel can be restored in the app. Values imported with \
            `navlog import swiftui-path` get their tag and element back exactly; others are \
            written with their type as the tag and their data (with their id) as the element. \
            A stack that does not exist at SPEC is an error (exit 1).

            Example:
              navlog export swiftui-path s-1.navlog --stack home --at 42 > path.json
              navlog export swiftui-path store/ --session s-000001 --stack home > path.json
            """
    )

    @Argument(help: "A session log (.navlog), an NDJSON file of events (- for standard input), or a store with --session.", completion: .file())
    var log: String

    @Option(help: ArgumentHelp("The stack to write.", valueName: "stack"))
    var stack: String

    @Option(name: .long, help: ArgumentHelp("Where in the session: N, an RFC 3339 instant, or end.", valueName: "SPEC"))
    var at: String = "end"

    @Option(help: ArgumentHelp("The scene (default: main).", valueName: "scene"))
    var scene: String = "main"

    @Option(name: .long, help: "Which session: of a store, or of NDJSON that holds several.")
    var session: String?

    func run() throws {
        let spec: StateSpec
        do { spec = try StateSpec(parsing: at) } catch { throw CLIFailure.trouble("--at: \(error)") }
        let opened = try OneSession.opened(log, session: session)
        let state = try reading { () throws(OneSessionError) in try opened.state(at: spec) }
        guard let sceneState = state.scenes[scene] else {
            throw CLIFailure.no("\(InputName.shown(log)): no scene \"\(scene)\" at \(at)")
        }
        guard let path = sceneState.stacks[stack] else {
            throw CLIFailure.no("\(InputName.shown(log)): no stack \"\(stack)\" in scene \"\(scene)\" at \(at)")
        }
        Output.line(SwiftUIPathCodec.encode(path).canonicalText)
    }
}
