import NavLogCore

/// Why an event was refused (``FileError/Kind/rejected``, an ingest or import
/// rejection): nothing of it was written. ``description`` is the one place
/// its text is made.
public enum Refusal: Hashable, Sendable, CustomStringConvertible {
    /// The line is not an acceptable event.
    case line(EventParseError)
    /// The seq is refused by the numbering rule (``Sequencer/seq(for:after:)``).
    case seq(SeqRefusal)
    /// The event's session is empty.
    case emptySession
    /// The event's session is not the log's.
    case otherSession(String, log: String)
    /// The log opened for a session belongs to another one.
    case logOfOtherSession(String, wanted: String)
    /// `t` is outside years 0000–9999.
    case timeOutOfRange
    /// The event's canonical line has `bytes` bytes, over ``EventParser/maxLineBytes``.
    case lineTooLong(bytes: Int)
    /// An ingest's reading thread and its parser disagree on a line's session.
    case sessionSkimDisagrees(skimmed: String, parsed: String)
    /// A segment store refuses the event: a different event at a stored seq (§8), or one it cannot store.
    indirect case store(SegmentStoreError)
    /// A line without a seq, numbered `seq` within its input, that the store
    /// refuses at that seq (another event of the session is stored there, or after it).
    indirect case numbered(seq: Int, SegmentStoreError)
    /// An uploaded log is damaged (other than a torn tail) from here on: what follows is not read.
    /// (Where, and why, as text.)
    case damagedLog(String)

    public var description: String {
        switch self {
        case .line(let error): error.description
        case .seq(let refusal): refusal.description
        case .emptySession: "session is empty"
        case .otherSession(let id, let log): "session \"\(id)\" is not the log's session \"\(log)\""
        case .logOfOtherSession(let existing, let wanted): "the log belongs to session \"\(existing)\", not \"\(wanted)\""
        case .timeOutOfRange: "t is outside years 0000–9999"
        case .lineTooLong(let bytes): "canonical line is \(bytes) bytes, over the limit of \(EventParser.maxLineBytes)"
        case .sessionSkimDisagrees(let skimmed, let parsed):
            "internal error: the session was skimmed as \"\(skimmed)\" but parsed as \"\(parsed)\""
        case .store(let error): error.description
        case .numbered(let seq, let error):
            "\(error) (the line has no seq and was numbered \(seq) within its input: give \"seq\" to continue a stored session)"
        case .damagedLog(let damage): "the log is damaged: \(damage); nothing after it is stored"
        }
    }
}
