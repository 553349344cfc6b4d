import ArgumentParser
import NavLogStore

/// `navlog verify LOG…`: an integrity check of every byte a checksum or a
/// structural rule covers (docs/commands.md).
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check logs and stores for damage; each problem is reported with its byte offset.",
        discussion: """
            Decompresses every block and checks every checksum, every entry against its \
            data, seq order, every line, checkpoints, the footer and the state chain. \
            Exit 1 when any log has a problem (an unfinished tail included: a writer is \
            active, or it crashed - see 'navlog repair'); exit 2 when a file cannot be read \
            at all (missing, a directory, no permission), after the others are checked.

            A segment store (a directory made by 'navlog ingest') is checked whole: every \
            segment's frames and records, every commit index against its blocks, every line, \
            each session's seqs, the Bloom filters and every checkpoint's state and chain. \
            Bytes after its durable point (a torn tail: a crash left them half written) are \
            reported and exit 1, as a log's unfinished tail is; anything wrong at or before \
            it, or a missing segment, manifest or COMMITTED file, is damage ('navlog repair').

            Example:
              navlog verify session.navlog run-a.navlog
              navlog verify store --json
            """
    )

    @Argument(help: "The .navlog files and segment stores (directories with a navlog-store manifest).", completion: .file())
    var logs: [String]

    @Flag(name: .long, help: "Print one JSON object: each log's status (ok, damaged, trouble) and problems (schemas/verify.schema.json).")
    var json = false

    func validate() throws {
        try InputOutputChecks.standardInputOnce(logs)
    }

    func run() throws {
        var bad = 0, unreadable = 0
        var output = VerifyJSON()
        for log in logs {
            if SegmentStore.isSegmentStore(log) {
                switch verifyStore(log, into: &output) {
                case .ok: break
                case .damaged: bad += 1
                case .trouble: unreadable += 1
                }
                continue
            }
            let report: VerifyReport
            do { report = try LogVerifier.verify(path: log) } catch {
                // Not an answer about the log: it could not be read (docs/commands.md: trouble).
                Output.error(CLIFailure(error).message)
                unreadable += 1
                output.add(error, file: log)
                continue
            }
            if json {
                output.add(report, file: log)
                if !report.isIntact { bad += 1 }
                continue
            }
            if report.isIntact {
                Output.line("\(log): ok, \(counted(report.events, "event")), \(counted(report.blocks, "block")), \(counted(report.checkpoints, "checkpoint"))"
                            + (report.hasFooter ? "" : ", not closed"))
            } else {
                bad += 1
                for problem in report.problems { Output.line(problem.description) }
                Output.line("\(log): \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); "
                            + "\(report.events) events verified before the first"
                            + (report.recoverableTailEvents > 0 ? ", \(report.recoverableTailEvents) recoverable from the tail" : ""))
            }
        }
        if json { Output.line(output.jsonValue.canonicalText) }
        Output.flushStandardOutput()
        let of = "of \(logs.count) \(Self.noun(for: logs))"
        if unreadable > 0 {
            let damaged = bad > 0 ? "; \(bad) damaged" : ""
            throw CLIFailure.trouble("\(unreadable) \(of) could not be read\(damaged)")
        }
        if bad > 0 { throw CLIFailure.no("\(bad) \(of) damaged") }
    }
}

extension VerifyCommand {
    enum Outcome { case ok, damaged, trouble }

    /// What the inputs are called in the closing count: logs, stores, or
    /// inputs when both are given.
    static func noun(for inputs: [String]) -> String {
        let stores = inputs.filter(SegmentStore.isSegmentStore).count
        let noun = stores == 0 ? "log" : stores == inputs.count ? "store" : "input"
        return inputs.count == 1 ? noun : noun + "s"
    }

    /// Verifies a segment store (SegmentVerifier): its lines, or its `--json` entry.
    func verifyStore(_ path: String, into output: inout VerifyJSON) -> Outcome {
        let report: SegmentStoreReport
        do { report = try SegmentVerifier.verify(store: SegmentStore.open(at: path)) } catch {
            Output.error(error.description)
            output.add(error, file: path)
            // A store that lost its manifest is damaged, not unreadable.
            if case .damaged = error { return .damaged }
            return .trouble
        }
        let store = StoreVerifyOutput(store: path, report: report)
        if json { output.add(store) } else { store.lines.forEach(Output.line) }
        Output.projectionNote(report.projectionBehind, store: path)
        return store.isIntact ? .ok : .damaged
    }
}

/// "1 block", "2 blocks": a count with its noun, singular or plural.
private func counted(_ n: Int, _ noun: String) -> String {
    n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
}
