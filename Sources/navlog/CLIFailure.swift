import NavLogCore
import NavLogStore

/// A failure a command reports: one line for stderr and the exit status of
/// contract §4 (1: the answer is no, 2: usage or I/O trouble).
struct CLIFailure: Error, CustomStringConvertible {
    var message: String
    var exitCode: Int32

    /// The message; what argument-parser prints when a `validate()` throws one.
    var description: String { message }

    /// Rejected input, a difference, corruption: exit 1.
    static func no(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 1) }
    /// Bad usage or I/O trouble: exit 2.
    static func trouble(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 2) }
}

extension CLIFailure {
    /// A log's error: damage is "the answer is no" (exit 1), I/O trouble,
    /// a lock or misuse is exit 2.
    init(_ error: LogError) {
        self = error.isCorruption ? .no(error.description) : .trouble(error.description)
    }
}
