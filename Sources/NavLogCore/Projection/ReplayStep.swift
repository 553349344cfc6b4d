/// One event of a session with what it changed: a line of `navlog replay`.
public struct ReplayStep: Hashable, Sendable {
    /// Where the event is in the session: 1 for the first event.
    public var position: Int
    /// The event.
    public var event: Event
    /// What it changed (``EventEffect/effects(of:before:after:anomalies:)``),
    /// its anomalies last.
    public var effects: [EventEffect]
    /// The state right after the event.
    public var state: NavigationState

    public init(position: Int, event: Event, effects: [EventEffect], state: NavigationState) {
        self.position = position
        self.event = event
        self.effects = effects
        self.state = state
    }

    /// The event's anomalies, in the order `apply` returned them.
    public var anomalies: [AnomalyKind] {
        effects.compactMap { if case .anomaly(let kind) = $0 { kind } else { nil } }
    }

    /// The visible screen of the event's scene after it; `nil` when the
    /// scene no longer exists (`scene.close`).
    public var screen: String? { state.scenes[event.sceneID]?.screen }
}

extension Event {
    /// Whether `pattern` matches this event or the screen it led to
    /// (`screen`, `nil` for none): its `type`, the screen, the screen name of
    /// any route value it carries (pushed, set, selected), `mark:<label>` of
    /// a mark or `url:<url>` of a deep link. What `navlog replay`'s search finds.
    public func matches(_ pattern: GlobPattern, screen: String?) -> Bool {
        if pattern.matches(type) { return true }
        if let screen, pattern.matches(screen) { return true }
        switch kind {
        case .stackPush(_, let value):
            return pattern.matches(value.screenName)
        case .stackSet(_, let path):
            return path.contains { pattern.matches($0.screenName) }
        case .splitSelect(_, _, let selection):
            return selection.contains { pattern.matches($0.screenName) }
        case .mark(let label):
            return pattern.matches("mark:" + label)
        case .urlOpen(let url):
            return pattern.matches("url:" + url)
        default:
            return false
        }
    }
}
