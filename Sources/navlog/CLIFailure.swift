// navlog/: The command-line tool: its entry (`NavLog.swift`), how a failure prints and exits (this file); `Commands/`, `Options/`, `Inputs/`, `Output/`, `Terminal/`.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// A failure a command reports: one line for stderr and the exit status of
/// docs/commands.md (1: the answer is no, 2: usage or I/O trouble).
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
    init(_ error: FileError) {
        if case .io(_, let code) = error.kind, let misuse = Self.misuse(error.path, errno: code) {
            self = misuse
            return
        }
        self = error.isCorruption ? .no(error.description) : .trouble(error.description)
    }

    /// A log or store `verify` could not read at all: a log's error as
    /// above; a store that lost its manifest or durable point is damaged
    /// (exit 1), any other store error trouble (exit 2).
    init(verifying failure: Integrity.Failure) {
        switch failure {
        case .log(let error): self.init(error)
        case .store(let error): self = failure.isStoreDamage ? .no(error.description) : .trouble(error.description)
        }
    }

    /// What `repair` could not do: a log's damage it cannot cut away is
    /// exit 1; everything else, a store's failures included, exit 2.
    init(repairing failure: Integrity.Failure) {
        switch failure {
        case .log(let error): self = error.isCorruption ? .no(error.description) : .trouble(error.description)
        case .store(let error): self = .trouble(error.description)
        }
    }

    /// An NDJSON input that cannot be read or is not NDJSON: exit 2.
    init(_ error: NDJSONReadError) {
        if case .system(_, let code) = error.problem, let misuse = Self.misuse(error.path, errno: code) {
            self = misuse
            return
        }
        self = .trouble(error.description)
    }

    /// A directory where a file is read, or `-` where a log is: what to
    /// give instead. `nil` for other failures.
    private static func misuse(_ path: String, errno code: Int32) -> CLIFailure? {
        if code == EISDIR {
            if !InputKind.of(path).isStore { return .trouble(StoreLayout.notAStoreMessage(path)) }
            return .trouble("\(path): is a directory, not a log or NDJSON file "
                            + "(the sessions of a store are read by funnel, paths and export)")
        }
        if code == EMFILE, let limit = OpenFileLimit.current {
            return .trouble("\(path): too many open files: the limit (ulimit -n) is \(limit)")
        }
        if path == "-" && code == ENOENT {
            return .trouble("-: a log cannot be read from standard input; give its path")
        }
        return nil
    }
}
