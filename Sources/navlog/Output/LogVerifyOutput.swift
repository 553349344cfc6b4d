import NavLogCore
import NavLogStore

/// What `navlog verify LOG` prints for a `.navlog` log: its text lines and
/// its entry in `--json` (schemas/verify.schema.json, `$defs/log`).
struct LogVerifyOutput: VerifiedOutput {
    let log: String
    let report: VerifyReport

    var isIntact: Bool { report.isIntact }
    var isStore: Bool { false }
    var projectionBehind: String? { nil }
    var repairs: RepairAdvice? { report.isIntact ? nil : .setsDamageAside }

    /// One line when intact; else each problem, then a summary line.
    var lines: [String] {
        if report.isIntact {
            return ["\(log): ok, \(counted(report.events, "event")), \(counted(report.blocks, "block")), \(counted(report.checkpoints, "checkpoint"))"
                    + (report.hasFooter ? "" : ", not closed")]
        }
        return report.problems.map(\.description) + [
            "\(log): \(report.problems.count) problem\(report.problems.count == 1 ? "" : "s"); "
            + "\(report.events) events verified"
            + (report.recoverableTailEvents > 0 ? ", \(report.recoverableTailEvents) recoverable from the tail" : ""),
        ]
    }

    var jsonValue: JSONValue {
        .object([
            "file": .string(log),
            "status": .string(report.isIntact ? "ok" : "damaged"),
            "events": .integer(report.events),
            "blocks": .integer(report.blocks),
            "checkpoints": .integer(report.checkpoints),
            "firstSeq": .integer(report.firstSeq),
            "lastSeq": .integer(report.lastSeq),
            "closed": .bool(report.hasFooter),
            "recoverableTailEvents": .integer(report.recoverableTailEvents),
            "validPrefixEnd": .integer(report.validPrefixEnd),
            "problems": .array(report.problems.map(\.jsonValue)),
            "problemsNotListed": .integer(report.problemsNotListed),
        ])
    }
}

/// "1 block", "2 blocks": a count with its noun, singular or plural.
private func counted(_ n: Int, _ noun: String) -> String {
    n == 1 ? "1 \(noun)" : "\(n) \(noun)s"
}
