import NavLogCore
import NavLogStore

/// What `navlog verify STORE` prints for a segment store: its text lines
/// and its entry in `--json` (schemas/verify.schema.json, `$defs/store`).
struct StoreVerifyOutput: VerifiedOutput {
    let store: String
    let report: SegmentStoreReport

    var isIntact: Bool { report.problems.isEmpty }
    var isStore: Bool { true }
    var projectionBehind: String? { report.projectionBehind }

    var repairs: RepairAdvice? {
        if isIntact || report.isIntactButTail { return nil }
        let projectionOnly = report.problems.allSatisfy { if case .projection = $0.kind { true } else { false } }
        return projectionOnly ? .writesProjectionAgain : .setsDamageAside
    }

    /// One line when intact; else each problem, then a summary line.
    var lines: [String] {
        let counts = "\(report.segments) segment\(report.segments == 1 ? "" : "s"), \(report.commits) commit\(report.commits == 1 ? "" : "s"), "
            + "\(report.sessions) session\(report.sessions == 1 ? "" : "s"), \(report.events) event\(report.events == 1 ? "" : "s"), "
            + "\(report.checkpoints) checkpoint\(report.checkpoints == 1 ? "" : "s")"
        if isIntact { return ["\(store): ok, \(counts)"] }
        let n = report.problems.count
        let what = report.isIntactButTail
            ? "a torn tail only (a writer is active, or it crashed; the next writer cuts it aside); \(counts) committed"
            : "\(n) problem\(n == 1 ? "" : "s"); \(counts) verified"
        return report.problems.map { "\(store)/\($0)" } + ["\(store): \(what)"]
    }

    var jsonValue: JSONValue {
        .object([
            "file": .string(store),
            "status": .string(isIntact ? "ok" : "damaged"),
            "store": .bool(true),
            "tornTailOnly": .bool(!isIntact && report.isIntactButTail),
            "segments": .integer(report.segments),
            "commits": .integer(report.commits),
            "sessions": .integer(report.sessions),
            "events": .integer(report.events),
            "checkpoints": .integer(report.checkpoints),
            "problems": .array(report.problems.map(\.jsonValue)),
            "projectionBehind": report.projectionBehind.map(JSONValue.string) ?? .null,
        ])
    }
}

extension SegmentDamage {
    /// A problem as a JSON object: the kind's name, what is wrong (without the kind's words) and where.
    var jsonValue: JSONValue {
        .object([
            "kind": .string(kind.parts.name),
            "reason": .string(kind.parts.why),
            "segment": .string(file),
            "offset": .integer(offset),
            "commit": .integer(commit),
            "session": session.map(JSONValue.string) ?? .null,
        ])
    }
}

extension SegmentStoreError {
    /// The error as verify's JSON error object (`offset`, `frame`, `seq` `null`).
    var jsonValue: JSONValue {
        if case .io(let error) = self { return error.jsonValue }
        let kind = switch self {
        case .unsupportedVersion: "unsupportedVersion"
        case .corrupt, .damaged: "corrupt"
        case .locked: "locked"
        default: "io"
        }
        return .object(["kind": .string(kind), "reason": .string(description), "offset": .null, "frame": .null, "seq": .null])
    }
}
