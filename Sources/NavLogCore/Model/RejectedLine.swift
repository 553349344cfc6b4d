/// An input line that was not accepted, with where it was and why
/// (docs/events.md: rejected with its line number and reason).
public struct RejectedLine: Error, Hashable, Sendable, CustomStringConvertible {
    /// The input's name as the user gave it (`-` for standard input).
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// Why it was rejected.
    public var reason: EventParseError

    public init(file: String, line: Int, reason: EventParseError) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `file:line: reason`, one line.
    public var description: String {
        "\(file == "-" ? "<stdin>" : file):\(line): \(reason)"
    }
}
