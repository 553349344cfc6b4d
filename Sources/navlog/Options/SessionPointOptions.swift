import ArgumentParser
import NavLogCore

/// What `state` and `blame` take: a session and a point in it.
struct SessionPointOptions: ParsableArguments {
    @Argument(help: "A session log (.navlog), an NDJSON file of events (- for standard input), or a store with --session.", completion: .file())
    var log: String

    @Option(name: .long, help: ArgumentHelp("Where in the session: N, an RFC 3339 instant, or end.", valueName: "SPEC"))
    var at: String = "end"

    @Option(name: .long, help: "Which session: of a store, or of NDJSON that holds several.")
    var session: String?

    /// `--at`, parsed.
    func spec() throws -> StateSpec {
        do { return try StateSpec(parsing: at) } catch { throw CLIFailure.trouble("--at: \(error)") }
    }
}
