/// Assigns and checks `seq` per session (contract §5): an absent seq becomes
/// the previous *accepted* seq of that session + 1; a present one must be
/// strictly greater. A rejected event never uses up a seq. Sessions are
/// told apart by their exact bytes (``SessionID``).
public struct Sequencer: Sendable {
    private var last: [SessionID: Int] = [:]

    public init() {}

    /// The last accepted seq of a session (0 when none).
    public func lastSeq(of session: String) -> Int { last[SessionID(session)] ?? 0 }

    /// Continues a session from an already-stored seq (e.g. appending to a log).
    public mutating func resume(session: String, at seq: Int) { last[SessionID(session)] = seq }

    /// Fills in or checks `event.seq`, and accepts it.
    public mutating func accept(_ event: inout Event) throws(EventParseError) {
        let key = SessionID(event.session)
        let previous = last[key] ?? 0
        if event.seq == 0 {
            guard previous < Int.max else {
                throw .invalidValue(field: "seq", reason: "session has reached the largest seq")
            }
            event.seq = previous + 1
        } else if event.seq <= previous {
            throw .seqNotIncreasing(seq: event.seq, previous: previous)
        }
        last[key] = event.seq
    }
}
