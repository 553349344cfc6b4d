import ArgumentParser
import NavLogStore

/// `append --durability`: when appended events reach the disk while input
/// is still coming — a named policy or a number of milliseconds.
enum DurabilityChoice: Equatable, CustomStringConvertible {
    case everyAppend, everySeal, onFlush
    case milliseconds(Int)

    /// The named policies, as given on the command line.
    static let names = ["every-append", "every-seal", "on-flush"]

    /// Parses `--durability`'s value; argument-parser prints the error as
    /// "The value 'x' is invalid for '--durability <policy>': …".
    init(parsing text: String) throws {
        switch text {
        case "every-append": self = .everyAppend
        case "every-seal": self = .everySeal
        case "on-flush": self = .onFlush
        default:
            guard let ms = Int(text), ms >= 0 else {
                throw ValidationError("give every-append, every-seal, on-flush or a number of milliseconds")
            }
            self = .milliseconds(ms)
        }
    }

    /// As given on the command line (`--help` shows the default so).
    var description: String {
        switch self {
        case .everyAppend: "every-append"
        case .everySeal: "every-seal"
        case .onFlush: "on-flush"
        case .milliseconds(let ms): String(ms)
        }
    }

    /// The writer's policy.
    var policy: LogWriterOptions.Durability {
        switch self {
        case .everyAppend: .everyAppend
        case .everySeal: .everySeal
        case .onFlush: .onFlush
        case .milliseconds(let ms): .interval(milliseconds: ms)
        }
    }
}
