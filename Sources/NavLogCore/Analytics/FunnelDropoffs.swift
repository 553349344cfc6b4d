/// The sessions that left a funnel after its step k: they reached exactly
/// k steps (``FunnelPath/reached``, by the one evaluation every funnel
/// count uses), with the seq and time of step k's occurrence, the moment
/// they left. What `navlog funnel … --dropoffs K --json` prints and
/// `POST /v1/funnel/dropoffs` answers.
///
/// ```swift
/// let left = try stream.tally { FunnelDropoffs(funnel: funnel, reached: 1) }
/// print(left.json)   // {"dropoffs":[{"seq":7,"session":"s-1","t":"…"}],"reached":1,"sessions":1}
/// ```
public struct FunnelDropoffs: SessionTally, Sendable {
    public static var needsMarks: Bool { true }

    /// One session that left: its id, and the seq and time of the last step it reached.
    public struct Dropoff: Hashable, Sendable {
        public var session: String
        public var seq: Int
        public var t: Timestamp
    }

    public let funnel: Funnel
    /// The steps reached (1 ≤ k < the funnel's steps).
    public let reached: Int
    /// The sessions that left there, in no particular order (``json`` sorts them).
    public private(set) var dropoffs: [Dropoff] = []

    public init(funnel: Funnel, reached: Int) {
        self.funnel = funnel
        self.reached = reached
    }

    public mutating func add(_ session: SessionOccurrences) {
        let path = funnel.evaluate(session.occurrences)
        guard path.reached == reached, reached > 0, let seq = path.seqs.last, let t = path.times.last else { return }
        dropoffs.append(Dropoff(session: session.session, seq: seq, t: t))
    }

    public mutating func merge(_ other: FunnelDropoffs) { dropoffs += other.dropoffs }

    /// `{"dropoffs":[{"seq":N,"session":ID,"t":T},…],"reached":K,"sessions":N}`, sessions by id (code point order).
    ///
    /// - Complexity: O(n log n) for n sessions that left.
    public var json: String {
        let sorted = dropoffs.sorted { utf8Less($0.session, $1.session) }
        return JSONValue.object([
            "dropoffs": .array(sorted.map {
                .object(["seq": .number(String($0.seq)), "session": .string($0.session), "t": .string($0.t.rfc3339)])
            }),
            "reached": .number(String(reached)),
            "sessions": .number(String(sorted.count)),
        ]).canonicalText
    }
}
