/// Which events `navlog replay` shows: those with seq in `from...to`
/// (either end open). Events before `from` are applied but not shown, so
/// every change shown is the real one; folding stops after `to`.
///
/// ```swift
/// ReplayRange(from: 10, to: 20).fold(events) { step in print(step.jsonValue) }
/// ```
public struct ReplayRange: Hashable, Sendable {
    public var from: Int?
    public var to: Int?

    public init(from: Int? = nil, to: Int? = nil) {
        self.from = from
        self.to = to
    }

    /// Whether the event is shown.
    public func includes(_ event: Event) -> Bool {
        (from.map { event.seq >= $0 } ?? true) && (to.map { event.seq <= $0 } ?? true)
    }

    /// Folds `events` (one session, in order) up to `to`, handing `step` each event shown.
    public func fold(_ events: some Sequence<Event>, step: (ReplayStep) -> Void) {
        var state: NavigationState?
        for (index, event) in events.enumerated() {
            if let to, event.seq > to { break }
            if state == nil { state = NavigationState(session: event.session) }
            if includes(event) {
                let effects = state!.applyDescribing(event)
                step(ReplayStep(position: index + 1, event: event, effects: effects, state: state!))
            } else {
                state!.apply(event)
            }
        }
    }
}
