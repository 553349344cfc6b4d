// Projection/: The one fold of events into navigation state: apply, the visible screen, effects, replay steps, state JSON.

/// Computing an event's effects from the state before and after it.
extension EventEffect {
    /// The changes `event` made, given the state just before it and just
    /// after ``NavigationState/apply(_:)`` applied it, and the anomalies that
    /// `apply` returned.
    ///
    /// In order: what the event itself says that is not state (`session
    /// started`, `deep link …`, `mark …`, `unknown kind …`), `session ended`,
    /// the scene's own change (opened, closed, restored, or its tabs, stacks,
    /// splits, modals and size class, in that order), `screen now …` when
    /// the scene's visible screen changed, then one ``anomaly(_:)`` each.
    /// An event that changed nothing has no effects (or only its anomalies).
    ///
    /// Only the event's scene is compared: no event changes another one.
    /// A scene that did not exist before counts as an empty one at `root`,
    /// so `screen now …` appears exactly when the projection emits a
    /// ``ScreenView``. `state.restore` is summed up as `restored scene …`
    /// (and the screen), not as a list of every difference.
    ///
    /// - Complexity: O(size of the event's scene) in the worst case; the
    ///   parts an event leaves alone are shared by the two states and
    ///   compare fast.
    public static func effects(
        of event: Event, before: NavigationState, after: NavigationState, anomalies: [AnomalyKind]
    ) -> [EventEffect] {
        var out: [EventEffect] = []
        switch event.kind {
        case .sessionStart(let app, _):
            out.append(.sessionStarted(appVersion: app.flatMap { Self.text($0["version"]) }))
        case .urlOpen(let url):
            out.append(.deepLink(url))
        case .mark(let label):
            out.append(.mark(label))
        case .other(let type):
            out.append(.unknownKind(type))
        default:
            break
        }
        if after.ended && !before.ended { out.append(.sessionEnded) }

        let id = event.sceneID
        let old = before.scenes[id]
        let new = after.scenes[id]
        let isRestore: Bool
        if case .stateRestore = event.kind { isRestore = true } else { isRestore = false }
        switch (old, new) {
        case (nil, nil):
            break
        case (.some, nil):
            out.append(.sceneClosed(id))
        case (nil, let new?):
            out.append(.sceneOpened(id))
            if isRestore { out.append(.sceneRestored(id)) } else { changes(from: SceneState(), to: new, kind: event.kind, into: &out) }
        case (let old?, let new?):
            if isRestore { out.append(.sceneRestored(id)) } else { changes(from: old, to: new, kind: event.kind, into: &out) }
        }
        if let new {
            let screen = new.screen
            if screen != (old?.screen ?? "root") { out.append(.screen(screen)) }
        }
        for anomaly in anomalies { out.append(.anomaly(anomaly)) }
        return out
    }

    /// A JSON string or number as text.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let s)?: s
        case .number(let n)?: n
        default: nil
        }
    }

    /// The differences between two states of one scene.
    static func changes(from old: SceneState, to new: SceneState, kind: EventKind, into out: inout [EventEffect]) {
        if old.tabs != new.tabs { tabChanges(from: old.tabs, to: new.tabs, kind: kind, into: &out) }
        if old.stacks != new.stacks { stackChanges(from: old.stacks, to: new.stacks, kind: kind, into: &out) }
        if old.splits != new.splits { splitChanges(from: old.splits, to: new.splits, into: &out) }
        if old.modals != new.modals { modalChanges(from: old.modals, to: new.modals, into: &out) }
        if old.sizeClass != new.sizeClass { out.append(.sizeClass(new.sizeClass)) }
        if old.tabs.presentation != new.tabs.presentation { out.append(.tabPresentation(new.tabs.presentation)) }
    }

    /// Order, sections, search tab, visibility and selection (the
    /// presentation comes with the size class). `tabs.define` and
    /// `tabs.customize` list the new order, the latter after `user
    /// customization`; tabs appended to it otherwise are listed unless the
    /// selection or a visibility change already names them.
    private static func tabChanges(from old: TabState, to new: TabState, kind: EventKind, into out: inout [EventEffect]) {
        if case .tabsCustomize = kind { out.append(.tabsCustomized) }
        let selected = old.selected != new.selected ? new.selected : nil
        var visibility: [EventEffect] = []
        var named: Set<String> = selected.map { [$0] } ?? []
        for tab in new.order {
            let was = old.hidden.contains(tab)
            let now = new.hidden.contains(tab)
            if was != now {
                visibility.append(now ? .tabHidden(tab) : .tabShown(tab))
                named.insert(tab)
            }
        }
        if old.order != new.order {
            if kind.definesTabOrder {
                out.append(.tabsDefined(new.order))
            } else if new.order.count > old.order.count, new.order.starts(with: old.order) {
                let added = new.order[old.order.count...].filter { !named.contains($0) }
                if !added.isEmpty { out.append(.tabsAdded(added)) }
            } else {
                out.append(.tabsDefined(new.order))
            }
        }
        if old.sections != new.sections { out.append(.tabSections(new.sections ?? [])) }
        if old.searchTab != new.searchTab { out.append(.searchTab(new.searchTab)) }
        out.append(contentsOf: visibility)
        if let selected { out.append(.tabSelected(selected)) }
    }

    /// Each changed stack, in code point order of its id: a push, a pop, or
    /// the whole path (`stack.set`, `popToRoot`, a stack created empty).
    private static func stackChanges(
        from old: [String: [RouteValue]], to new: [String: [RouteValue]], kind: EventKind,
        into out: inout [EventEffect]
    ) {
        let wholePath: Bool
        switch kind {
        case .stackSet, .stackPopToRoot: wholePath = true
        default: wholePath = false
        }
        for id in Set(old.keys).union(new.keys).sorted(by: utf8Less) {
            // A stack only disappears with `state.restore`, which is summed up elsewhere.
            guard let path = new[id] else { continue }
            let was = old[id]
            if was == path { continue }
            let previous = was ?? []
            if wholePath || path == previous {
                out.append(.stackIs(id, path: path))
            } else if path.count > previous.count, path.starts(with: previous) {
                out.append(.pushed(Array(path[previous.count...]), stack: id))
            } else if path.count < previous.count, previous.starts(with: path) {
                out.append(.popped(previous.count - path.count, stack: id))
            } else {
                out.append(.stackIs(id, path: path))
            }
        }
    }

    /// Each changed split, in code point order of its id: columns, then visibility.
    private static func splitChanges(
        from old: [String: SplitState], to new: [String: SplitState], into out: inout [EventEffect]
    ) {
        for id in new.keys.sorted(by: utf8Less) {
            let split = new[id]!
            let was = old[id]
            if was == split { continue }
            let previous = was ?? SplitState()
            let count = out.count
            for column in [SplitColumn.sidebar, .content, .detail] where previous[column] != split[column] {
                out.append(.splitSelected(id, column: column, selection: split[column]))
            }
            if previous.visibility != split.visibility { out.append(.splitVisibility(id, split.visibility)) }
            if out.count == count { out.append(.splitCreated(id)) }
        }
    }

    /// What left the modal stack above the common bottom part, then what was added.
    private static func modalChanges(
        from old: [ModalPresentation], to new: [ModalPresentation], into out: inout [EventEffect]
    ) {
        var common = 0
        while common < old.count, common < new.count, old[common] == new[common] { common += 1 }
        if common < old.count { out.append(.dismissed(old[common...].map(\.modal))) }
        for presentation in new[common...] { out.append(.presented(presentation)) }
    }
}

extension NavigationState {
    /// Applies one event like ``apply(_:)`` and returns what it changed
    /// (``EventEffect/effects(of:before:after:anomalies:)``).
    ///
    /// ```swift
    /// state.applyDescribing(push)   // [.pushed([Recipe/apple-pie], stack: "home"), .screen("Recipe/apple-pie")]
    /// ```
    @discardableResult
    public mutating func applyDescribing(_ event: Event) -> [EventEffect] {
        let before = self
        let anomalies = apply(event)
        return EventEffect.effects(of: event, before: before, after: self, anomalies: anomalies)
    }
}

extension EventKind {
    /// Whether the kind sets the whole tab order (`tabs.define`, `tabs.customize`).
    var definesTabOrder: Bool {
        switch self {
        case .tabsDefine, .tabsCustomize: true
        default: false
        }
    }
}
