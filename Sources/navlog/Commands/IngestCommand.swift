#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog ingest INPUT… --store DIR [--rejects FILE]`: interleaved sessions
/// into one log per session (contract §4).
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store NDJSON holding many sessions into one log per session.",
        discussion: """
            Every line is stored or rejected: rejected lines are reported as file:line: reason \
            (the first 20 on standard error, all counted) and, with --rejects, copied there \
            verbatim. Exit 1 when any line was rejected. A session that already has a log in \
            the store is appended to; its seq goes on. Session ids become file names by \
            schemas/store.md (a readable slug and a hash of the id). A progress bar is drawn \
            on standard error when it is a terminal. Ctrl-C (or SIGTERM) stops the ingest \
            after the lines read so far: they are stored or rejected, the logs are closed, \
            and the summary says the last line read (exit 130, or 143). With --json the summary \
            is one JSON object on standard output (schemas/ingest.schema.json).

            Example:
              navlog generate --sessions 100 | \\
                  navlog ingest - --store logs --rejects rejected.ndjson
            """
    )

    @OptionGroup var options: StoreWriteOptions

    func run() throws {
        // Inputs that cannot be read are reported before the store is touched.
        for input in options.inputs where input != "-" && access(input, R_OK) != 0 {
            throw CLIFailure.trouble("\(input): cannot open: \(String(cString: strerror(errno)))")
        }
        let target = try options.openStore()
        let reporter = try RejectionReporter(options)
        StopSignals.hold()
        let ingester = StoreIngester(store: target, options: StoreIngester.Options(maxOpenWriters: options.maxOpen))
        let report: StoreIngester.Report
        do throws(LogError) {
            report = try ingester.ingest(paths: options.inputs,
                                         onReject: { reporter.reject($0.description, bytes: $0.bytes) },
                                         onProgress: { reporter.progress?.draw($0) },
                                         shouldStop: { StopSignals.pending() != nil })
        } catch {
            reporter.abandon()
            // What was stored before the failure stays stored: say how much.
            let done = ingester.lastReport
            if options.json {
                Output.line(done.jsonValue(store: target.directory, reporter: reporter, failure: error.description).canonicalText)
            } else if done.stored > 0 || done.rejected > 0 {
                Output.line("stored \(done.stored) event\(done.stored == 1 ? "" : "s") in \(target.directory) before the failure; "
                            + "\(done.rejected) line\(done.rejected == 1 ? "" : "s") rejected")
            }
            throw CLIFailure.trouble(error.description)
        }
        try reporter.finish()
        if options.json {
            Output.line(report.jsonValue(store: target.directory, reporter: reporter).canonicalText)
        } else {
            let sessions = "\(report.sessions) session\(report.sessions == 1 ? "" : "s") (\(report.newLogs) new)"
            Output.line("stored \(report.stored) event\(report.stored == 1 ? "" : "s") of \(sessions) in \(target.directory); "
                        + "\(report.rejected) line\(report.rejected == 1 ? "" : "s") rejected")
        }
        if let (file, line) = report.stoppedAfter, let signal = StopSignals.pending() {
            let input = file == "-" ? "<stdin>" : file
            throw CLIFailure(message: "stopped: read up to \(input):\(line); nothing after it was read",
                             exitCode: StopSignals.exitStatus(signal))
        }
        try reporter.failIfRejected(report.rejected, noun: "line")
    }
}
