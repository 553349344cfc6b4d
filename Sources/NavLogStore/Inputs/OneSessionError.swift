import NavLogCore

/// Why one session cannot be read from what a path names: one line saying
/// what and where, and whether it is damage ("the answer is no") or trouble.
public enum OneSessionError: Error, Sendable, CustomStringConvertible {
    /// A log, or the file named, cannot be read.
    case log(FileError)
    /// A store's session cannot be found or read.
    case lookup(SessionLookupError)
    /// NDJSON cannot be read.
    case ndjson(NDJSONReadError)
    /// NDJSON lines were rejected (the first ``OneSession/rejectsShown`` were handed out).
    case rejected(input: String, count: Int)
    /// A log or stored session is damaged (not a torn tail).
    case damaged(String)
    /// Anything else that is the caller's to change: a store without
    /// `--session`, an input of several sessions or none, a log of another session.
    case trouble(String)

    public var description: String {
        switch self {
        case .log(let error): error.description
        case .lookup(let error): error.description
        case .ndjson(let error): error.description
        case .rejected(let input, let count):
            "\(InputName.shown(input)): \(count) line\(count == 1 ? "" : "s") rejected"
                + (count > OneSession.rejectsShown ? " (\(count - OneSession.rejectsShown) not shown)" : "")
                + "; no state printed"
        case .damaged(let message), .trouble(let message): message
        }
    }
}
