import NavLogCore

/// The screen views of an NDJSON input's events, each applied to its
/// session's state: the ``NavigationProjector`` that
/// ``SessionStream/forEachNDJSONEvent(_:share:firstRead:keepsSessionStartObjects:keepsRestoredObjects:rejecting:passed:start:_:)``
/// keeps for each session under way, gone at its last line, so memory
/// follows the sessions under way.
///
/// ```swift
/// var views = NDJSONScreenViews()
/// let view = views.view(after: event, state: &projector)   // the screen view it emitted, if any
/// ```
struct NDJSONScreenViews {
    private var views: [ScreenView] = []

    /// Applies `event` to its session's `state`; the screen view it emitted, if any.
    mutating func view(after event: Event, state: inout NavigationProjector) -> ScreenView? {
        views.removeAll(keepingCapacity: true)
        state.apply(event, screenViews: &views)
        return views.last
    }
}
