/// The projection's rules (docs/events.md, docs/state.md): what each event kind does to
/// the state. Every fold calls these: ``NavigationProjector/apply(_:)``, the
/// canonical-line summary fold, the screen-view fold, the sample generator's
/// scene model and the recorder's path tracking. A scene's own kinds are
/// ``SceneState``'s rules (`SceneState+Apply.swift`).
extension NavigationProjector {
    /// Applies an event kind's effect on scene `id`, counts its own anomaly
    /// (not `after-end`) and returns it.
    ///
    /// Effects, beyond the table of docs/events.md:
    /// - `tabs.define` sets the order exactly (later duplicates dropped),
    ///   forgets hidden tabs that are not in it and keeps the selection, even
    ///   when the selected tab is not in the new order.
    /// - `tab.select` of a tab not in the order appends it; of a hidden tab,
    ///   selects it, keeps it hidden and records `select-hidden`.
    /// - `tab.visibility` of a tab not in the order appends it to the order
    ///   first (like `tab.select`), so hidden tabs are always in the order and
    ///   `tabs.hidden` can be listed in tab order.
    /// - `stack.pop` removes `count` (default 1) values; popping more than the
    ///   stack holds empties it and records `pop-underflow`. `stack.pop` and
    ///   `stack.popToRoot` of an unknown stack create it empty.
    /// - `split.select` (split default `"main"`) and `split.visibility` create
    ///   the split (visibility `automatic`, empty columns).
    /// - `modal.present` (style default `sheet`) of an id already anywhere in
    ///   the modal stack changes nothing and records `present-duplicate`.
    /// - `modal.dismiss` with an id removes the lowest modal with that id and
    ///   all above it (unknown id: `dismiss-unknown`); without one, the top
    ///   modal (none: `dismiss-empty`). Stacks are left as they were.
    /// - `state.restore` replaces the scene's state; `layout.change` sets the
    ///   size class; `session.end` marks the session ended.
    /// - `session.start`, `url.open`, `mark` and unknown kinds change nothing
    ///   but the scene's existence.
    mutating func applyEffect(_ kind: EventKind, scene id: String) -> AnomalyKind? {
        switch kind {
        case .sceneClose:
            closeScene(id)
        case .sessionEnd:
            endSession(in: id)
        case .stateRestore(let restored, _):
            restoreScene(id, to: restored)
        case .sceneOpen, .sessionStart, .urlOpen, .mark, .other:
            touchScene(id)
        default:
            return changeScene(id) { $0.apply(kind, cache: &$1) }
        }
        return nil
    }

    // One rule a session-level effect: what ``applyEffect(_:scene:)`` does,
    // and what ``EventLineParser/fold(_:line:into:)`` calls without an event.

    /// Every event: the state's seq and time become the event's; returns
    /// whether the session had ended before it (the event is `after-end`).
    @inline(__always)
    mutating func advance(seq: Int, t: Timestamp) -> Bool {
        state.seq = seq
        state.t = t
        return state.ended
    }

    /// Every event, last: counts `after-end` when due and lists the event's
    /// anomalies (its own first).
    @inline(__always)
    mutating func finish(_ own: AnomalyKind?, wasEnded: Bool) -> [AnomalyKind] {
        guard wasEnded else { return own.map { [$0] } ?? [] }
        state.record(.afterEnd)
        return own.map { [$0, .afterEnd] } ?? [.afterEnd]
    }

    /// `scene.close`: the scene is forgotten.
    @inline(__always)
    mutating func closeScene(_ id: String) {
        state.scenes.removeValue(forKey: id)
        cache.forget()
    }

    /// `session.end`: the session is ended; the scene exists.
    @inline(__always)
    mutating func endSession(in id: String) {
        state.ended = true
        touchScene(id)
    }

    /// `state.restore`: the scene's state is replaced.
    @inline(__always)
    mutating func restoreScene(_ id: String, to restored: SceneState) {
        state.scenes[id] = restored
        cache.forget()
    }

    /// Any event: makes sure its scene exists (empty when new).
    @inline(__always)
    mutating func touchScene(_ id: String) {
        if let last = cache.scene, last.id == id { return }
        if state.scenes.index(forKey: id) == nil {
            state.scenes[id] = SceneState()
            cache.forget()
        }
    }

    /// A scene's own kind: applies `change` to scene `id` (made empty when
    /// new) in place and records the anomaly it returns, if any.
    @inline(__always)
    mutating func changeScene(
        _ id: String, _ change: (inout SceneState, inout SceneCache) -> AnomalyKind?
    ) -> AnomalyKind? {
        let anomaly = change(&state.scenes.values[sceneIndex(id)], &cache.inScene)
        cache.screen = nil
        if let anomaly { state.record(anomaly) }
        return anomaly
    }

    /// Where a scene is in the state's scenes, made empty when new;
    /// remembered for the next event on the same scene.
    @inline(__always)
    mutating func sceneIndex(_ id: String) -> Dictionary<String, SceneState>.Index {
        if let last = cache.scene, last.id == id { return last.index }
        touchScene(id)
        let index = state.scenes.index(forKey: id)!
        cache.scene = (id, index)
        cache.inScene = SceneCache()
        cache.screen = nil
        return index
    }
}

extension NavigationState {
    /// Counts one anomaly.
    @inline(__always)
    mutating func record(_ kind: AnomalyKind) {
        anomalies[kind, default: 0] += 1
    }
}
