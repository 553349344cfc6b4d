import NavLogCore
import NavLogStore

/// `navlog verify --json` (schemas/verify.schema.json): one object with an
/// entry per log, in the order given, and the counts of each status.
struct VerifyJSON {
    private var files: [JSONValue] = []
    private var counts = ["ok": 0, "damaged": 0, "trouble": 0]

    /// A log that was read to the end: `ok` or `damaged`, with what verified and every problem.
    mutating func add(_ report: VerifyReport, file: String) {
        let status = report.isIntact ? "ok" : "damaged"
        counts[status, default: 0] += 1
        files.append(.object([
            "file": .string(file),
            "status": .string(status),
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
        ]))
    }

    /// A log that could not be read at all: `trouble`, with the error.
    mutating func add(_ error: LogError, file: String) {
        counts["trouble", default: 0] += 1
        files.append(.object(["file": .string(file), "status": .string("trouble"), "error": error.jsonValue]))
    }

    /// A segment store that was read to the end: `ok` or `damaged` (a torn tail included).
    mutating func add(_ store: StoreVerifyOutput) {
        let status = store.isIntact ? "ok" : "damaged"
        counts[status, default: 0] += 1
        files.append(store.jsonValue)
    }

    /// A segment store that could not be read at all: `trouble`, with the error.
    mutating func add(_ error: SegmentStoreError, file: String) {
        counts["trouble", default: 0] += 1
        files.append(.object(["file": .string(file), "status": .string("trouble"), "error": error.jsonValue]))
    }

    var jsonValue: JSONValue {
        var object = counts.mapValues(JSONValue.integer)
        object["files"] = .array(files)
        return .object(object)
    }
}
