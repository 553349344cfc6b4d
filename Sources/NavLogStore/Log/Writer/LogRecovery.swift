/// What opening a log for writing (or `navlog repair`) had to do to a file
/// whose tail was torn or damaged (schemas/navlog-format.md §9).
public struct LogRecovery: Hashable, Sendable {
    /// Where the file was cut.
    public var cutOffset: Int64
    /// How many bytes were cut.
    public var cutBytes: Int64
    /// The side file holding exactly the cut bytes (`nil` when only a footer
    /// was cut, which holds nothing that is not elsewhere).
    public var sideFile: String?
    /// Events kept from an unfinished data frame, which was finished in place.
    public var recoveredEvents: Int
    /// Why the tail was cut.
    public var reason: String

    public init(cutOffset: Int64, cutBytes: Int64, sideFile: String?, recoveredEvents: Int, reason: String) {
        self.cutOffset = cutOffset
        self.cutBytes = cutBytes
        self.sideFile = sideFile
        self.recoveredEvents = recoveredEvents
        self.reason = reason
    }
}
