import ArgumentParser
import NavLogServeCommand
import NavLogStore

/// `navlog serve --store DIR [--listen ADDR] [--keys FILE]`: the collector
/// and its read API (docs/serve.md, schemas/openapi.yaml). The server is its
/// own program, `navlog-serve` beside this one: once the options parse, this
/// process becomes it (`execv`), so the pid, the signals (SIGINT and SIGTERM
/// stop it gracefully), the standard streams and the exit status are the server's.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: ServeHelp.abstract,
        discussion: ServeHelp.discussion
    )

    @OptionGroup var options: ServeOptions

    /// The server's program name, looked for beside `navlog`'s executable.
    static let program = "navlog-serve"

    func run() throws {
        // The words after `serve`, as parsed (negative numbers joined to their option).
        let arguments = ArgumentCheck.joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
        guard arguments.first == Self.configuration.commandName else {
            throw CLIFailure.trouble("serve: the command must come first (navlog serve --store DIR)")
        }
        guard let directory = ExecutablePath.directory else {
            throw CLIFailure.trouble("serve: the system does not say where navlog's executable is, so \(Self.program) cannot be found beside it")
        }
        let server = directory + "/" + Self.program
        guard FileSystem.runProblem(server) == nil else {
            throw CLIFailure.trouble("\(Self.program) is missing: no \(server) beside navlog; install it there with its "
                                     + "navlog_NavLogServer.resources folder (swift build -c release builds both)")
        }
        Output.flushStandardOutput()
        let failure = ExecutablePath.replaceProcess(with: server, arguments: Array(arguments.dropFirst()))
        throw CLIFailure.trouble("serve: cannot run \(server): \(FileSystem.reason(failure))")
    }
}
