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
    /// Tables of the screen-projection blocks being read (``add(projected:)``), not part of the counts.
    var projectionTables = FunnelProjectionTables()
    /// The funnel's work tables, reused from one session to the next (``Funnel/evaluate(_:scratch:)``), not part of the counts.
    private var scratch = FunnelScratch()

    public init(funnel: Funnel, by segmentPath: [String]? = nil, startedFrom: Timestamp? = nil, startedTo: Timestamp? = nil) {
        self.funnel = funnel
        self.segmentPath = segmentPath
        self.startedFrom = startedFrom
        self.startedTo = startedTo
    }

    /// Counts one session in its segment, unless it started outside the
    /// range (a session with no start time is left out when a range is given).
    public mutating func add(_ session: SessionOccurrences) {
        guard isCounted(startedAt: session.startTime) else { return }
        count(funnel.evaluate(session.occurrences, scratch: &scratch), in: segmentPath.map { session.segment($0) } ?? "")
    }

    /// Whether a session that started at `start` is counted (the range, if any).
    func isCounted(startedAt start: Timestamp?) -> Bool {
        if startedFrom != nil || startedTo != nil {
            guard let start else { return false }
            if let startedFrom, start < startedFrom { return false }
            if let startedTo, startedTo < start { return false }
        }
        return true
    }

    /// Counts one session's path in its segment.
    mutating func count(_ path: FunnelPath, in segment: String) {
        tallies[segment, default: FunnelTally(steps: funnel.steps.count)].add(path)
    }

    public mutating func merge(_ other: FunnelSegments) {
        for (segment, tally) in other.tallies {
            tallies[segment, default: FunnelTally(steps: funnel.steps.count)].merge(tally)
        }
    }
}
