import NavLogCore
import NavLogStore

/// What `navlog verify` prints for one input it read to the end, whatever
/// its format: its text lines, its entry in `--json`
/// (schemas/verify.schema.json), and what the closing count and the
/// projection note need.
protocol VerifiedOutput {
    var lines: [String] { get }
    var jsonValue: JSONValue { get }
    var isIntact: Bool { get }
    /// Whether the input is a store (for the closing count's noun).
    var isStore: Bool { get }
    /// Why a store's screen projection is behind, when it is.
    var projectionBehind: String? { get }
    /// What `navlog repair` does for it when it is damaged (`nil` when
    /// there is nothing for repair to do: intact, or a store's torn tail,
    /// which the next writer cuts).
    var repairs: RepairAdvice? { get }
}

/// What `navlog repair` does for a damaged input, as verify's closing line says it.
enum RepairAdvice: String {
    case setsDamageAside = "sets the damage aside"
    case writesProjectionAgain = "writes its screen projection again"
}

extension Integrity.Verified {
    /// How `verify` prints what it found at `path`.
    func output(path: String) -> any VerifiedOutput {
        switch self {
        case .log(let report): LogVerifyOutput(log: path, report: report)
        case .store(let report): StoreVerifyOutput(store: path, report: report)
        }
    }
}

extension Integrity.Failure {
    /// Whether the input that could not be read is a store.
    var isStore: Bool {
        if case .store = self { return true }
        return false
    }
}
