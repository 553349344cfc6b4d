/// A funnel counted over many sessions (``SessionTally``): one
/// ``FunnelTally`` per segment, the value of a field of each session's
/// first `session.start` (all sessions in segment `""` without one), over
/// the sessions that started in a time range.
///
/// ```swift
/// var segments = FunnelSegments(funnel: funnel, by: ["app", "version"])
/// for session in sessions { segments.add(session) }
/// let report = FunnelReport(funnel: funnel, by: "app.version", tallies: segments.tallies)
/// ```
public struct FunnelSegments: SessionTally, Sendable {
    public static var needsMarks: Bool { true }

    public let funnel: Funnel
    /// The dotted path of the segment field (``SessionOccurrences/segment(_:)``), if any.
    public let segmentPath: [String]?
    /// Only sessions that started at or after this instant, if given.
    public let startedFrom: Timestamp?
    /// Only sessions that started at or before this instant, if given.
    public let startedTo: Timestamp?
    /// The counts, by segment.
    public private(set) var tallies: [String: FunnelTally] = [:]

    public init(funnel: Funnel, by segmentPath: [String]? = nil, startedFrom: Timestamp? = nil, startedTo: Timestamp? = nil) {
        self.funnel = funnel
        self.segmentPath = segmentPath
        self.startedFrom = startedFrom
        self.startedTo = startedTo
    }

    /// Counts one session in its segment, unless it started outside the
    /// range (a session with no start time is left out when a range is given).
    public mutating func add(_ session: SessionOccurrences) {
        if startedFrom != nil || startedTo != nil {
            guard let start = session.startTime else { return }
            if let startedFrom, start < startedFrom { return }
            if let startedTo, startedTo < start { return }
        }
        let segment = segmentPath.map { session.segment($0) } ?? ""
        tallies[segment, default: FunnelTally(steps: funnel.steps.count)].add(funnel.evaluate(session.occurrences))
    }

    public mutating func merge(_ other: FunnelSegments) {
        for (segment, tally) in other.tallies {
            tallies[segment, default: FunnelTally(steps: funnel.steps.count)].merge(tally)
        }
    }
}
