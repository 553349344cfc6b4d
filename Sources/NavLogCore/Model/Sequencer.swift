/// Assigns and checks `seq` per session (docs/events.md): an absent seq becomes
/// the previous *accepted* seq of that session + 1; a present one must be
/// strictly greater. A rejected event never uses up a seq. Sessions are
/// told apart by their exact bytes (``SessionID``).
///
/// ``seq(for:after:)`` is the rule itself, and ``SeqRefusal`` its reasons:
/// every writer of navlog (NDJSON input, `append`, `ingest`, `import`, the
/// recorder) numbers through it.
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
        do throws(SeqRefusal) {
            event.seq = try Self.seq(for: event.seq, after: last[key] ?? 0)
        } catch {
            throw error.parseError
        }
        last[key] = event.seq
    }

    /// The seq an event gets when the session's previous accepted seq is
    /// `previous` (0: none): `given` when it is above `previous`, and
    /// `previous` + 1 when `given` is 0 (absent).
    @inline(__always)
    public static func seq(for given: Int, after previous: Int) throws(SeqRefusal) -> Int {
        if given == 0 {
            guard previous < Int.max else { throw .exhausted }
            return previous + 1
        }
        try check(given, after: previous)
        return given
    }

    /// Refuses a seq given (present in the event) that is not above `previous`.
    @inline(__always)
    public static func check(_ given: Int, after previous: Int) throws(SeqRefusal) {
        guard given > previous else { throw .notIncreasing(seq: given, previous: previous) }
    }
}

/// Why ``Sequencer/seq(for:after:)`` refuses an event's seq.
public enum SeqRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    /// The seq is absent and the session's previous seq is the largest there is.
    case exhausted
    /// The seq given is not above the session's previous accepted seq.
    case notIncreasing(seq: Int, previous: Int)

    /// The refusal as the reason an NDJSON line is not acceptable.
    public var parseError: EventParseError {
        switch self {
        case .exhausted: .invalidValue(field: "seq", reason: "session has reached the largest seq")
        case .notIncreasing(let seq, let previous): .seqNotIncreasing(seq: seq, previous: previous)
        }
    }

    /// `field "seq": 3 does not increase (previous accepted seq is 5)`, or
    /// `field "seq": session has reached the largest seq`.
    public var description: String { parseError.description }
}
