import NavLogCore

/// The screen views of an NDJSON input's events, given in file order with
/// each session's last line marked (``SessionStream/forEachNDJSONEvent(_:_:)``):
/// one ``NavigationProjector`` for each session under way, gone at its
/// last line, so memory follows the sessions under way.
///
/// ```swift
/// var views = NDJSONScreenViews()
/// let view = views.view(after: event, endsSession: false)   // the screen view it emitted, if any
/// ```
struct NDJSONScreenViews {
    private var states: [SessionID: NavigationProjector] = [:]
    private var views: [ScreenView] = []

    /// Applies `event` to its session's state; the screen view it emitted, if any.
    mutating func view(after event: Event, endsSession: Bool) -> ScreenView? {
        views.removeAll(keepingCapacity: true)
        let id = SessionID(event.session)
        if endsSession {
            var state = states.removeValue(forKey: id) ?? NavigationProjector(session: event.session)
            state.apply(event, screenViews: &views)
        } else {
            states[id, default: NavigationProjector(session: event.session)].apply(event, screenViews: &views)
        }
        return views.last
    }
}
