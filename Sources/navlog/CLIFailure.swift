import NavLogCore
import NavLogStore

/// A failure a command reports: one line for stderr and the exit status of
/// contract §4 (1: the answer is no, 2: usage or I/O trouble).
struct CLIFailure: Error {
    var message: String
    var exitCode: Int32

    /// Rejected input, a difference, corruption: exit 1.
    static func no(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 1) }
    /// Bad usage or I/O trouble: exit 2.
    static func trouble(_ message: String) -> CLIFailure { CLIFailure(message: message, exitCode: 2) }
}
