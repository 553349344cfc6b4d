/// Folds a session's events into its ``NavigationState``, one after another:
/// the projection (docs/events.md, docs/state.md) for many events.
///
/// ```swift
/// var projector = NavigationProjector(session: "s-1")
/// for event in events { projector.apply(event) }
/// let state = projector.state
/// ```
///
/// The projector owns the state while it folds and remembers where the last
/// event worked (its scene, stack and split), so that the next event on the
/// same ones needs no hash lookup. The result is the state
/// ``NavigationState/apply(_:)`` gives, event by event.
public struct NavigationProjector: Sendable {
    /// The state after the events applied so far.
    public internal(set) var state: NavigationState
    /// Where the fold last worked; valid for ``state`` only, which is why
    /// nothing else changes it.
    var cache = FoldCache()

    /// Starts from the empty state of `session`.
    public init(session: String) {
        state = NavigationState(session: session)
    }

    /// Continues from `state` (a checkpoint, or a state folded earlier).
    public init(state: NavigationState) {
        self.state = state
    }

    /// Applies one event and returns the anomalies it caused, as
    /// ``NavigationState/apply(_:)`` does.
    ///
    /// - Complexity: O(1) hash lookups for most kinds, none when the event
    ///   acts on the scene and stack or split of the event before; O(n) in
    ///   the event's own payload.
    @discardableResult
    public mutating func apply(_ event: Event) -> [AnomalyKind] {
        let wasEnded = advance(seq: event.seq, t: event.t)
        return finish(applyEffect(event.kind, scene: event.sceneID), wasEnded: wasEnded)
    }
}

extension NavigationState {
    /// Applies one event and returns the anomalies it caused (for
    /// `navlog replay`); see ``NavigationProjector`` to fold many.
    ///
    /// ```swift
    /// var state = NavigationState(session: "s-1")
    /// let anomalies = state.apply(event)   // usually []
    /// ```
    ///
    /// The anomalies are the event's own first, if any, then `after-end` if
    /// the session had already ended. Each is also counted in ``anomalies``.
    /// The state's ``seq`` and ``t`` become the event's. The event's scene
    /// exists afterwards (created empty when first named), except after
    /// `scene.close`. ``session`` is left as it is. The fold never stops on a
    /// surprising but well-formed event; it records an anomaly instead. The
    /// effect of each kind is described at ``NavigationProjector/applyEffect(_:scene:)``.
    @discardableResult
    public mutating func apply(_ event: Event) -> [AnomalyKind] {
        var projector = NavigationProjector(state: consume self)
        defer { self = projector.state }
        return projector.apply(event)
    }
}

/// Where the fold last worked, so that the next event on the same scene,
/// stack or split needs no hash lookup. Dictionary indices stay valid while
/// only values change; whatever may add or remove keys forgets them.
struct FoldCache: Sendable {
    /// The scene last changed and its place in ``NavigationState/scenes``.
    var scene: (id: String, index: Dictionary<String, SceneState>.Index)?
    /// Within that scene: the stack and split last changed.
    var inScene = SceneCache()
    /// That scene's visible screen, when the fold with screen views left it
    /// known; forgotten by any other change to a scene.
    var screen: ScreenKey?

    /// Forgets everything (the scene table's keys may have changed).
    @inline(__always)
    mutating func forget() {
        scene = nil
        inScene = SceneCache()
        screen = nil
    }
}

/// The stack and split of one scene that the fold last changed, with their
/// places in ``SceneState/stacks`` and ``SceneState/splits``.
struct SceneCache: Sendable {
    var stack: (id: String, index: Dictionary<String, [RouteValue]>.Index)?
    var split: (id: String, index: Dictionary<String, SplitState>.Index)?
}
