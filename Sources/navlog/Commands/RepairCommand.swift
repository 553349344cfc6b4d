import ArgumentParser
import NavLogStore

/// `navlog repair LOG`: cut a torn or damaged tail, keeping the cut bytes
/// aside (docs/commands.md).
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Cut a log's torn or damaged tail into a side file and make the rest intact.",
        discussion: """
            The log is cut at the end of its valid prefix; the cut bytes are first copied \
            to LOG.torn-<offset>, so nothing is lost. An unfinished last block keeps its \
            complete events and is finished in place; the footer is rewritten. Takes the \
            writer lock.

            Example:
              navlog repair s-1.navlog
            """
    )

    @Argument(help: "The .navlog file.", completion: .file())
    var log: String

    func run() throws {
        let report: RepairReport
        do { report = try LogRepair.repair(path: log) } catch {
            throw error.isCorruption ? CLIFailure.no(error.description) : CLIFailure.trouble(error.description)
        }
        if report.nothingToDo {
            Output.line("\(log): intact, nothing to do (\(report.events) events)")
            return
        }
        for problem in report.problemsFound { Output.line("found: \(problem)") }
        if let recovery = report.recovery {
            var line = "\(log): cut \(recovery.cutBytes) bytes at byte \(recovery.cutOffset)"
            if let side = recovery.sideFile { line += ", kept in \(side)" }
            if recovery.recoveredEvents > 0 { line += "; \(recovery.recoveredEvents) events of the unfinished block kept" }
            Output.line(line)
        }
        Output.line("\(log): \(report.events) events, footer rewritten")
    }
}
