import ArgumentParser
import NavLogStore

/// `append --durability`: when appended events reach the disk while input
/// is still coming — a named policy or a number of milliseconds.
extension LogWriterOptions.Durability {
    /// The named policies, as given on the command line.
    static let argumentNames = ["every-append", "every-seal", "on-flush"]

    /// Parses `--durability`'s value; argument-parser prints the error as
    /// "The value 'x' is invalid for '--durability <policy>': …".
    init(argument text: String) throws {
        switch text {
        case "every-append": self = .everyAppend
        case "every-seal": self = .everySeal
        case "on-flush": self = .onFlush
        default:
            guard let ms = Int(text), ms >= 0 else {
                throw ValidationError("give every-append, every-seal, on-flush or a number of milliseconds")
            }
            self = .interval(milliseconds: ms)
        }
    }
}
