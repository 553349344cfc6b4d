/// A screen view (docs/state.md): an event changed its scene's visible screen.
///
/// These are the rows of `navlog export screens` and what funnel screen
/// patterns match against.
public struct ScreenView: Hashable, Sendable {
    /// The session id.
    public var session: String
    /// The seq of the event that changed the screen.
    public var seq: Int
    /// The time of that event.
    public var t: Timestamp
    /// The scene whose screen changed.
    public var scene: String
    /// The new visible screen (``SceneState/screen``).
    public var screen: String

    public init(session: String, seq: Int, t: Timestamp, scene: String, screen: String) {
        self.session = session
        self.seq = seq
        self.t = t
        self.scene = scene
        self.screen = screen
    }
}

extension NavigationProjector {
    /// Applies one event like ``apply(_:)`` and appends a ``ScreenView`` to
    /// `screenViews` when the event changed its scene's visible screen.
    ///
    /// ```swift
    /// var projector = NavigationProjector(session: "s-1")
    /// var views: [ScreenView] = []
    /// for event in events { projector.apply(event, screenViews: &views) }
    /// ```
    ///
    /// Only the event's own scene can change. A new (or re-created) scene
    /// starts at `root` and emits no view for that: its first view is emitted
    /// when an event moves it off `root`. `scene.open` and `scene.close` emit
    /// none. Kinds that cannot change a screen (`session.*`, `url.open`,
    /// `mark`, `layout.change`, unknown kinds) skip the screen comparison
    /// entirely. (`split.visibility` can: it creates its split.)
    @discardableResult
    public mutating func apply(_ event: Event, screenViews: inout [ScreenView]) -> [AnomalyKind] {
        let (anomalies, screen) = applyTrackingScreen(event)
        if let screen {
            screenViews.append(ScreenView(session: event.session, seq: event.seq, t: event.t, scene: event.sceneID,
                                          screen: screen))
        }
        return anomalies
    }

    /// ``apply(_:screenViews:)`` without the ``ScreenView``: the new visible
    /// screen of the event's scene when the event changed it, else `nil`.
    @inline(__always)
    mutating func applyTrackingScreen(_ event: Event, names: ScreenNameCache? = nil) -> (anomalies: [AnomalyKind], screen: String?) {
        guard event.kind.canChangeScreen else { return (apply(event), nil) }
        let wasEnded = advance(seq: event.seq, t: event.t)
        let index = sceneIndex(event.sceneID)
        let remembered = cache.screen
        var before = ScreenKey.root
        var after = ScreenKey.root
        // In place (no copy of the scene): the screen before (unless
        // remembered), the change, the screen after.
        let own = Self.apply(event.kind, to: &state.scenes.values[index], cache: &cache.inScene,
                             before: remembered, &before, &after)
        cache.screen = after
        if let own { state.record(own) }
        let screen = after.hasSameName(as: before) ? nil : names?.name(of: after) ?? after.name
        return (finish(own, wasEnded: wasEnded), screen)
    }

    @inline(__always)
    private static func apply(
        _ kind: EventKind, to scene: inout SceneState, cache: inout SceneCache, before remembered: ScreenKey?,
        _ before: inout ScreenKey, _ after: inout ScreenKey
    ) -> AnomalyKind? {
        before = remembered ?? scene.screenKey(cache)
        let own = scene.apply(kind, cache: &cache)
        after = scene.screenKey(cache)
        return own
    }
}

extension NavigationState {
    /// Applies one event like ``apply(_:)`` and appends a ``ScreenView`` to
    /// `screenViews` when the event changed its scene's visible screen (see
    /// ``NavigationProjector/apply(_:screenViews:)``, which folds many).
    @discardableResult
    public mutating func apply(_ event: Event, screenViews: inout [ScreenView]) -> [AnomalyKind] {
        var projector = NavigationProjector(state: consume self)
        defer { self = projector.state }
        return projector.apply(event, screenViews: &screenViews)
    }
}

extension EventKind {
    /// Whether an event of this kind can change its scene's visible screen
    /// (other than by creating the scene, which starts at `root`): every kind
    /// that acts on the scene's own state, `state.restore` included.
    /// Visibility does not change a screen, but `split.visibility` creates
    /// its split, which can.
    var canChangeScreen: Bool {
        switch self {
        case .tabsDefine, .tabsCustomize, .tabSelect, .tabVisibility, .stackPush, .stackPop, .stackPopToRoot,
             .stackSet, .splitSelect, .splitVisibility, .modalPresent, .modalDismiss, .stateRestore:
            true
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .urlOpen, .layoutChange, .mark, .other:
            false
        }
    }
}
