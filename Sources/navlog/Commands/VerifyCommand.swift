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

            The closing line names the repair to run for what is damaged; a store's \
            torn tail needs none (the next writer cuts it aside).

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
        var bad = 0, unreadable = 0, stores = 0
        /// What `navlog repair` does for each damaged input, by path (the closing line's advice).
        var repairs: [(path: String, does: RepairAdvice)] = []
        var output = VerifyJSON()
        for path in logs {
            let verified: any VerifiedOutput
            do { verified = try Integrity.verify(path).output(path: path) } catch {
                // Not an answer about the input: it could not be read (docs/commands.md: trouble),
                // but a store that lost its manifest or durable point is damaged.
                Output.error(CLIFailure(verifying: error).message)
                output.add(error, file: path)
                if error.isStoreDamage {
                    bad += 1
                    repairs.append((path, .setsDamageAside))
                } else {
                    unreadable += 1
                }
                if error.isStore { stores += 1 }
                continue
            }
            if json { output.add(verified) } else { verified.lines.forEach(Output.line) }
            Output.projectionNote(verified.projectionBehind, store: path)
            if !verified.isIntact { bad += 1 }
            if let does = verified.repairs { repairs.append((path, does)) }
            if verified.isStore { stores += 1 }
        }
        if json { Output.line(output.jsonValue.canonicalText) }
        Output.flushStandardOutput()
        // What the inputs are called in the closing count: logs, stores, or inputs when both are given.
        let noun = stores == 0 ? "log" : stores == logs.count ? "store" : "input"
        let of = "of \(logs.count) \(noun)\(logs.count == 1 ? "" : "s")"
        // The advice: the repair to run, or that each damaged input takes its own.
        let advice = switch repairs.count {
        case 0: ""
        case 1: "; 'navlog repair \(repairs[0].path)' \(repairs[0].does.rawValue)"
        default: "; 'navlog repair INPUT' for each sets its damage aside"
        }
        if unreadable > 0 {
            let damaged = bad > 0 ? "; \(bad) damaged" : ""
            throw CLIFailure.trouble("\(unreadable) \(of) could not be read\(damaged)\(advice)")
        }
        if bad > 0 { throw CLIFailure.no("\(bad) \(of) damaged\(advice)") }
    }
}
