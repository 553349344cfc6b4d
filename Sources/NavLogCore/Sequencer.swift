/// Assigns and checks `seq` per session (contract §5): an absent seq becomes
/// the previous *accepted* seq of that session + 1; a present one must be
/// strictly greater. A rejected event never uses up a seq.
public struct Sequencer: Sendable {
    private var last: [String: Int] = [:]

    public init() {}

    /// The last accepted seq of a session (0 when none).
    public func lastSeq(of session: String) -> Int { last[session] ?? 0 }

    /// Continues a session from an already-stored seq (e.g. appending to a log).
    public mutating func resume(session: String, at seq: Int) { last[session] = seq }

    /// Fills in or checks `event.seq`, and accepts it.
    public mutating func accept(_ event: inout Event) throws(EventParseError) {
        let previous = last[event.session] ?? 0
        if event.seq == 0 {
            guard previous < Int.max else {
                throw .invalidValue(field: "seq", reason: "session has reached the largest seq")
            }
            event.seq = previous + 1
        } else if event.seq <= previous {
            throw .seqNotIncreasing(seq: event.seq, previous: previous)
        }
        last[event.session] = event.seq
    }
}
