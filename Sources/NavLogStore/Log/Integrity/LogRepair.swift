/// What ``LogRepair/repair(path:)`` did.
public struct RepairReport: Sendable {
    /// The file.
    public var path: String
    /// The problems verification found before the repair.
    public var problemsFound: [Damage<LogFault>]
    /// The cut, if one was made (with its side file).
    public var recovery: LogRecovery?
    /// Whether a footer was (re)written.
    public var wroteFooter: Bool
    /// Events in the log after the repair.
    public var events: Int

    /// Whether the file was already intact and closed.
    public var nothingToDo: Bool { problemsFound.isEmpty && recovery == nil && !wroteFooter }
}

/// Repairs a damaged or torn `.navlog` file (schemas/navlog-format.md §9):
/// cuts it at the end of its valid prefix, first copying the cut bytes to a
/// side file `X.navlog.damaged-<offset>` (`.torn-<offset>` for a torn tail,
/// which the writer's own recovery cuts) so nothing is lost; finishes
/// an unfinished data frame in place, keeping its verified events; and
/// rewrites the footer.
public enum LogRepair {
    /// Repairs the file at `path`, holding the writer lock while it does.
    ///
    /// - Throws: `.locked` when a writer is active, `.notANavlog` when the
    ///   preamble itself is wrong (nothing to keep), I/O errors.
    public static func repair(path: String) throws(FileError) -> RepairReport {
        // A missing file is an error, as for `verify`: there is nothing to repair, and nothing is created.
        let file = try OpenFile(path: path, mode: .update)
        try file.lockExclusive()
        let verified = try LogVerifier.verify(path: path)
        if verified.isIntact && verified.hasFooter {
            return RepairReport(path: path, problemsFound: [], recovery: nil, wroteFooter: false, events: verified.events)
        }
        // Is the damage more than a torn tail, which the writer's own recovery handles?
        let size = try file.size()
        let window = FileWindow(file: file, fileSize: size)
        let walked = try LogWalker(path: path, window: window).walk()
        guard walked.header != nil || size < Int64(NavLogFormat.preambleBytes) else {
            throw FileError.corrupt(path, .headerUnrepairable, offset: 0, frame: 0)
        }
        let firstProblem = verified.problems.map(\.offset).min() ?? size
        var recovery: LogRecovery?
        if walked.stopIsCorruption || firstProblem < walked.bodyEnd {
            let cut = verified.validPrefixEnd
            // Damage, not a crash's torn tail: named as a store names it.
            let side = try TornTail.setAside(file, from: cut, to: size, as: .damaged)
            recovery = LogRecovery(cutOffset: cut, cutBytes: size - cut, sideFile: side, recoveredEvents: 0,
                                   reason: verified.problems.first?.kind.description ?? "damage")
        }
        let writer = try LogWriter(lockedFile: file, options: LogWriterOptions())
        if let own = writer.recovery {
            recovery = recovery.map {
                LogRecovery(cutOffset: $0.cutOffset, cutBytes: $0.cutBytes, sideFile: $0.sideFile,
                            recoveredEvents: own.recoveredEvents, reason: $0.reason)
            } ?? own
        }
        let events = writer.eventCount
        try writer.close()
        return RepairReport(path: path, problemsFound: verified.problems, recovery: recovery, wroteFooter: true, events: events)
    }
}
