#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog ingest INPUT… --store DIR [--rejects FILE]`: interleaved sessions,
/// and single-session `.navlog` logs, into a segment store (docs/commands.md).
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store NDJSON holding many sessions, and .navlog logs, into a store.",
        discussion: """
            The store is a segment store (schemas/segment-store.md), made when DIR is absent \
            or empty; a version-1 store (one .navlog file per session) is refused: convert it \
            with `navlog store upgrade DIR`. One writer at a time: a second ingest into the \
            same store fails at once, having written nothing. Inputs are NDJSON files, - for \
            standard input, or .navlog files (a device's log of one session). Every line is \
            stored, found already stored, or rejected: an event the store holds (same session, \
            seq and line) is counted as a duplicate and nothing is done, so re-running an \
            ingest stores nothing; a different event at a stored seq is rejected. Rejected \
            lines are reported as file:line: reason (the first 20 on standard error, all \
            counted) and, with --rejects, copied there verbatim. Exit 1 when any line was \
            rejected. An event without a seq is numbered within its input (the previous line \
            of its session in the same file + 1, or 1), so re-running an input stores nothing; \
            a session the store holds is continued by lines with explicit seqs. What exit 0 reports is on disk (synced); while input comes in, what was \
            stored is committed at least every --commit-interval milliseconds. A progress bar is drawn on \
            standard error when it is a terminal. Ctrl-C (or SIGTERM) stops the ingest after \
            the lines read so far: they are stored or rejected, the store is closed, and the \
            summary says the last line read (exit 130, or 143). With --json the summary is \
            one JSON object on standard output (schemas/ingest.schema.json).

            Example:
              navlog generate --sessions 100 | \\
                  navlog ingest - --store events --rejects rejected.ndjson
            """
    )

    @OptionGroup var options: StoreWriteOptions

    @Option(name: .customLong("chunk-lines"), help: ArgumentHelp(
        "Lines handed on to be stored at a time (default 4096); with --commit-interval 0, a commit every N lines.",
        valueName: "n", visibility: .hidden))
    var chunkLines: Int = 4096

    func validate() throws {
        if chunkLines < 1 { throw ValidationError("--chunk-lines must be 1 or more") }
    }

    func run() throws {
        // Inputs that cannot be read are reported before the store is touched.
        for input in options.inputs where input != "-" {
            if let code = FileSystem.readProblem(input) { throw CLIFailure.trouble("\(input): cannot open: \(FileSystem.reason(code))") }
        }
        do throws(SegmentStoreError) { try StoreIngester.checkInputs(options.inputs) } catch {
            throw CLIFailure.trouble(error.description)
        }
        let target = try options.openStore()
        let reporter = try RejectionReporter(options)
        StopSignals.hold()
        let ingester = StoreIngester(store: target, options: StoreIngester.Options(commitInterval: options.commitInterval, chunkLines: chunkLines))
        let report: StoreIngester.Report
        do throws(SegmentStoreError) {
            report = try ingester.ingest(paths: options.inputs,
                                         onReject: { reporter.reject($0.description, bytes: $0.bytes) },
                                         onProgress: { reporter.progress?.draw($0) },
                                         shouldStop: { StopSignals.pending() != nil })
        } catch {
            reporter.abandon()
            // What was stored before the failure stays stored: say how much.
            let done = ingester.lastReport
            if options.json {
                Output.line(done.jsonValue(store: target.path, reporter: reporter, failure: error.description).canonicalText)
            } else if done.stored > 0 || done.rejected > 0 {
                Output.line("stored \(done.stored) event\(done.stored == 1 ? "" : "s") in \(target.path) before the failure; "
                            + "\(done.rejected) line\(done.rejected == 1 ? "" : "s") rejected")
            }
            throw CLIFailure.trouble(error.description)
        }
        try report.finish(store: target.path, reporter: reporter, json: options.json)
    }
}
