import ArgumentParser
import NavLogStore

/// `navlog repair LOG_OR_STORE`: cut a log's torn or damaged tail, or set a
/// store's damage aside, keeping the cut bytes (docs/commands.md).
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Cut a log's torn or damaged tail, or set a store's damage aside, keeping the bytes in side files.",
        discussion: """
            A log is cut at the end of its valid prefix; the cut bytes are first copied \
            to LOG.torn-<offset>, so nothing is lost. An unfinished last block keeps its \
            complete events and is finished in place; the footer is rewritten. Takes the \
            writer lock.

            A segment store keeps its longest prefix of intact commits: the bytes after it \
            are copied to NNNNNNNN.nls.damaged-<offset> (NNNNNNNN.nls.torn-<offset> for a \
            torn tail) and the segment cut there; later segments are renamed \
            NNNNNNNN.nls.damaged-0; a missing manifest and the durable point are written \
            again. Every file moved, with the commits and events in it, is printed.

            Examples:
              navlog repair s-1.navlog
              navlog repair store/
            """
    )

    @Argument(help: "The .navlog file or segment store.", completion: .file())
    var log: String

    func run() throws {
        if SegmentStore.isSegmentStore(log) { return try repairStore() }
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

    private func repairStore() throws {
        let store = DirectoryPath.trimmed(log)
        let report: SegmentRepairReport
        do { report = try SegmentRepair.repair(store: store) } catch { throw CLIFailure.trouble(error.description) }
        if report.nothingToDo {
            Output.line("\(store): intact, nothing to do")
            return
        }
        for problem in report.found { Output.line("found: \(store)/\(problem)") }
        for move in report.moves { Output.line("\(store)/\(move)") }
        if report.wroteManifest { Output.line("\(store)/navlog-store: written") }
        if let point = report.wrotePoint {
            Output.line("\(store)/COMMITTED: written: commit \(point.commit)" + (point.commit > 0 ? ", segment \(point.segment), byte \(point.end)" : ""))
        }
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        if report.projectionFilesWritten > 0 {
            Output.line("\(store): \(count(report.projectionFilesWritten, "screen projection file")) written again (reindex)")
        }
        let summary = "\(store): \(count(report.commitsSetAside, "commit")), \(count(report.eventsSetAside, "event")) set aside; "
            + "\(count(report.commitsKept, "commit")) kept"
        guard report.left.isEmpty else {
            for problem in report.left { Output.line("left: \(store)/\(problem)") }
            throw CLIFailure.no(summary + "; \(count(report.left.count, "problem")) left")
        }
        Output.line(summary + "; verify: ok")
    }
}
