import NavLogCore
import NavLogStore

/// `navlog verify --json` (schemas/verify.schema.json): one object with an
/// entry per log or store, in the order given, and the counts of each status.
struct VerifyJSON {
    private var files: [JSONValue] = []
    private var counts = ["ok": 0, "damaged": 0, "trouble": 0]

    /// A log or store that was read to the end: `ok` or `damaged` (a store's torn tail included).
    mutating func add(_ verified: any VerifiedOutput) {
        counts[verified.isIntact ? "ok" : "damaged", default: 0] += 1
        files.append(verified.jsonValue)
    }

    /// A log or store that could not be read at all: `trouble`, with the error.
    mutating func add(_ failure: Integrity.Failure, file: String) {
        counts["trouble", default: 0] += 1
        let error = switch failure {
        case .log(let error): error.jsonValue
        case .store(let error): error.jsonValue
        }
        files.append(.object(["file": .string(file), "status": .string("trouble"), "error": error]))
    }

    var jsonValue: JSONValue {
        var object = counts.mapValues(JSONValue.integer)
        object["files"] = .array(files)
        return .object(object)
    }
}
