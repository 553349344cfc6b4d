import ArgumentParser
import NavLogStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct NavLog: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "navlog",
        abstract: "Event-sourced app navigation: time-travel through recorded sessions.",
        discussion: """
            Exit status: 0 success, 1 the answer is no (diverged, different, corrupt, \
            rejected lines), 2 usage or I/O trouble.
            """,
        version: "0.1.0",
        subcommands: [StateCommand.self, ReplayCommand.self, Generate.self, AppendCommand.self, CatCommand.self, InfoCommand.self, VerifyCommand.self, RepairCommand.self, IngestCommand.self, DiffCommand.self, BisectCommand.self, BlameCommand.self, FunnelCommand.self, ExportCommand.self, PathsCommand.self, ImportCommand.self, StoreCommand.self, SessionsCommand.self, ReindexCommand.self, ServeCommand.self]
    )

    /// Runs a command and maps every outcome to its exit status (docs/commands.md)
    /// (§4): errors are one line on stderr, help goes to stdout.
    static func main() {
        let status: Int32
        let arguments = ArgumentCheck.joiningNegativeValues(Array(CommandLine.arguments.dropFirst()))
        do {
            if arguments.first == "help", let mistake = ArgumentCheck.mistake(arguments) {
                throw CLIFailure.trouble("\(mistake) (see 'navlog --help')")
            }
            var command = try parseAsRoot(arguments)
            if let problem = OpenFileLimit.problem() { throw CLIFailure.trouble(problem) }
            if let coloring = command as? any ColoringCommand { Output.colorChoice = coloring.colorOptions.color }
            try command.run()
            status = 0
        } catch let failure as CLIFailure {
            status = report(failure)
        } catch let error as SessionStreamError {
            status = report(CLIFailure(error))
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                status = 0
            } else {
                // Usage errors: one line, and where to read more.
                Output.flushStandardOutput()
                let message = ArgumentCheck.mistake(arguments)
                    ?? message(for: error).split(whereSeparator: \.isNewline).joined(separator: " ")
                Output.error("\(message.isEmpty ? "usage error" : message) (see '\(commandPath(CommandLine.arguments)) --help')")
                status = 2
            }
        }
        Output.flushStandardOutput()
        Glibc_exit(status)
    }
}

extension NavLog {
    /// Prints a failure as one line on standard error; its exit status.
    static func report(_ failure: CLIFailure) -> Int32 {
        Output.flushStandardOutput()
        Output.error(failure.message)
        return failure.exitCode
    }

    /// The (sub)command the arguments name — `navlog`, `navlog replay`,
    /// `navlog import csv` — so that a usage error points to its own help.
    static func commandPath(_ arguments: [String]) -> String {
        var path = ["navlog"]
        var command: any ParsableCommand.Type = NavLog.self
        for argument in arguments.dropFirst() {
            guard let sub = command.configuration.subcommands.first(where: { $0.configuration.commandName == argument })
            else { break }
            path.append(argument)
            command = sub
        }
        return path.joined(separator: " ")
    }
}

/// The C library's `exit`, which `ParsableCommand`'s own `exit(withError:)` shadows.
func Glibc_exit(_ status: Int32) -> Never {
    #if canImport(Glibc)
    Glibc.exit(status)
    #else
    Darwin.exit(status)
    #endif
}
