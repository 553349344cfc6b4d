import NavLogStore

/// What `navlog repair` prints for a log or a store it repaired: what it
/// found, what it cut or set aside and where it kept it, what is left.
enum RepairOutput {
    /// Prints `repaired`; throws the "no" (exit 1) of a store with problems left.
    static func print(_ repaired: Integrity.Repaired, path: String) throws {
        switch repaired {
        case .log(let report): log(path, report)
        case .store(let report): try store(DirectoryPath.trimmed(path), report)
        }
    }

    private static func log(_ log: String, _ report: RepairReport) {
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

    private static func store(_ store: String, _ report: SegmentRepairReport) throws {
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
