/// Follows one session's events and keeps what funnels and paths look at:
/// its screen views (from the projection, docs/state.md), marks and deep
/// links as ``FunnelOccurrence``s, when it started, and its first
/// `session.start` event.
///
/// ```swift
/// var recorder = SessionOccurrences(session: "s-1")
/// for event in events { recorder.add(event) }    // in seq order
/// let path = funnel.evaluate(recorder.occurrences)
/// ```
public struct SessionOccurrences: Sendable {
    /// The session.
    public let session: String
    /// Screen views, marks and deep links, in seq order.
    public private(set) var occurrences: [FunnelOccurrence] = []
    /// The first `session.start` event, if any.
    public private(set) var sessionStart: Event?
    /// The time of the first event.
    public private(set) var firstEventTime: Timestamp?
    /// The seq of the first event.
    public private(set) var firstEventSeq: Int?
    private var projector: NavigationProjector
    private let keepsMarks: Bool

    /// `keepsMarks: false` records screen views only.
    public init(session: String, keepsMarks: Bool = true) {
        self.session = session
        projector = NavigationProjector(session: session)
        self.keepsMarks = keepsMarks
    }

    /// The session as its screen projection keeps it (schemas/screen-projection.md):
    /// its runs, in commit order.
    package init(runs: [ScreenProjectionRun], keepsMarks: Bool) {
        session = runs.first?.session ?? ""
        projector = NavigationProjector(session: session)
        self.keepsMarks = keepsMarks
        firstEventTime = runs.first?.firstT
        firstEventSeq = runs.first?.firstSeq
        for run in runs {
            if sessionStart == nil { sessionStart = run.sessionStart }
            occurrences += keepsMarks ? run.occurrences : run.occurrences.filter { $0.target == .screen }
        }
    }

    /// Whether the first `session.start` was taken by ``takeRun()`` (a later one is not the first).
    private var startTaken = false

    /// Gives the occurrences recorded so far and the first `session.start`
    /// if it came since the last call, and forgets them: a writer that cuts
    /// a session's rows at commit boundaries keeps only its state.
    package mutating func takeRun() -> (occurrences: [FunnelOccurrence], sessionStart: Event?) {
        // Swapped out, not copied: the recorder is left empty without a retain and release of what it gives.
        var taken: (occurrences: [FunnelOccurrence], sessionStart: Event?) = ([], nil)
        swap(&taken.occurrences, &occurrences)
        swap(&taken.sessionStart, &sessionStart)
        if taken.sessionStart != nil { startTaken = true }
        return taken
    }

    /// When the session started: its first `session.start`, else its first event.
    public var startTime: Timestamp? { sessionStart?.t ?? firstEventTime }

    /// Applies the next event of the session.
    public mutating func add(_ event: Event) {
        add(event, names: nil)
    }

    /// ``add(_:)`` finding screen names built before in `names` (one table
    /// serves all the sessions a thread follows).
    package mutating func add(_ event: Event, names: ScreenNameCache?) {
        if firstEventTime == nil {
            firstEventTime = event.t
            firstEventSeq = event.seq
        }
        switch event.kind {
        case .mark(let label):
            if keepsMarks { record(FunnelOccurrence(seq: event.seq, t: event.t, target: .mark, name: label, scene: event.sceneID)) }
        case .urlOpen(let url):
            if keepsMarks { record(FunnelOccurrence(seq: event.seq, t: event.t, target: .url, name: url, scene: event.sceneID)) }
        case .sessionStart:
            if sessionStart == nil, !startTaken { sessionStart = event }
        default:
            break
        }
        if let screen = projector.applyTrackingScreen(event, names: names).screen {
            record(FunnelOccurrence(seq: event.seq, t: event.t, target: .screen, name: screen, scene: event.sceneID))
        }
    }

    /// Appends an occurrence; the first of a run makes room for several
    /// (a session has a few, and growing from one allocates again at 2 and 4).
    @inline(__always)
    private mutating func record(_ occurrence: FunnelOccurrence) {
        if occurrences.capacity == 0 { occurrences.reserveCapacity(8) }
        occurrences.append(occurrence)
    }

    /// The value at a dotted path (`app.version`) in the first
    /// `session.start`, as a segment name: a string as it is, any other JSON
    /// as its canonical text; `""` when there is no such event or field.
    public func segment(_ path: [String]) -> String { Self.segment(of: sessionStart, path) }

    /// ``segment(_:)`` of a session whose first `session.start` is `start`.
    static func segment(of start: Event?, _ path: [String]) -> String {
        guard let start, let head = path.first else { return "" }
        var value: JSONValue?
        if case .sessionStart(let app, let device) = start.kind {
            switch head {
            case "app": value = app.map(JSONValue.object)
            case "device": value = device.map(JSONValue.object)
            case "session": value = .string(start.session)
            case "scene": value = start.scene.map(JSONValue.string)
            case "meta": value = start.meta.map(JSONValue.object)
            default: value = start.extra[head]
            }
        }
        for key in path.dropFirst() {
            guard case .object(let members)? = value else { return "" }
            value = members[key]
        }
        switch value {
        case nil, .null?: return ""
        case .string(let s)?: return s
        case let other?: return other.canonicalText
        }
    }
}
