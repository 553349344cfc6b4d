/// Who put each thing of a state there (`navlog blame`): for every value on
/// every stack, every split column's selection, every presented modal and
/// every hidden tab,
/// the event that put it there, and the `url.open` behind that event when
/// its `cause` chain leads to one.
///
/// ```swift
/// var blame = StateBlame(session: "s-1")
/// for event in events { blame.apply(event) }
/// blame.origins(ofStack: "home", scene: "main")   // one origin per value
/// ```
///
/// Rules: a push, a present and a split selection are their own origins; a
/// pop or a dismiss keeps the origins of what stays; `stack.set` and
/// `state.restore` are the origin of everything they set (even a value that
/// was already there). A hidden tab's origin is the event that hid it: a
/// `tab.visibility` (the app), a `tabs.customize` that lists it as hidden
/// (the user, even when it was hidden already) or a `state.restore`.
public struct StateBlame: Sendable {
    /// The event that put something there, and the deep link behind it.
    public struct Origin: Hashable, Sendable {
        /// The event (its seq, t, type, cause).
        public var event: Event
        /// The `url.open` its cause chain leads to, if any.
        public var url: Event?
    }

    /// The origins within one scene, parallel to its state.
    public struct SceneOrigins: Hashable, Sendable {
        /// One origin per value of each stack.
        public var stacks: [String: [Origin]] = [:]
        /// The origin of each split column's current selection.
        public var splits: [String: [SplitColumn: Origin]] = [:]
        /// One origin per presented modal, bottom first.
        public var modals: [Origin] = []
        /// The origin of each hidden tab's hiding: a `tabs.customize` (the
        /// user), a `tab.visibility` (the app) or a `state.restore`.
        public var hiddenTabs: [String: Origin] = [:]

        public init() {}
    }

    /// The state after the events applied.
    public private(set) var state: NavigationState
    /// Origins by scene.
    public private(set) var scenes: [String: SceneOrigins] = [:]
    /// `url.open` events by seq, and the cause of every caused event.
    private var urlOpens: [Int: Event] = [:]
    private var causes: [Int: Int] = [:]

    public init(session: String) {
        state = NavigationState(session: session)
    }

    /// The longest cause chain followed to find a `url.open`.
    public static let maxCauseHops = 32

    /// Applies one event to the state and to the origins.
    ///
    /// - Complexity: O(size of the event's scene) at worst; O(1) for a push.
    public mutating func apply(_ event: Event) {
        let id = event.sceneID
        let before = state.scenes[id]
        state.apply(event)
        if case .urlOpen = event.kind { urlOpens[event.seq] = event }
        if let cause = event.cause { causes[event.seq] = cause }
        guard let after = state.scenes[id] else {
            scenes.removeValue(forKey: id)
            return
        }
        if before == nil { scenes[id] = SceneOrigins() }
        if before == after, !event.kind.setsOrigins { return }
        let origin = Origin(event: event, url: deepLink(behind: event))
        var origins = scenes[id] ?? SceneOrigins()
        let old = before ?? SceneState()
        switch event.kind {
        case .stateRestore:
            origins = SceneOrigins()
            for (stack, values) in after.stacks { origins.stacks[stack] = Array(repeating: origin, count: values.count) }
            for (split, state) in after.splits {
                for column in SplitColumn.allCases where !state[column].isEmpty { origins.splits[split, default: [:]][column] = origin }
            }
            origins.modals = Array(repeating: origin, count: after.modals.count)
        case .stackSet(let stack, let path):
            origins.stacks[stack] = Array(repeating: origin, count: path.count)
        case .splitSelect(let split, let column, let selection):
            if selection.isEmpty {
                origins.splits[split ?? "main", default: [:]].removeValue(forKey: column)
            } else {
                origins.splits[split ?? "main", default: [:]][column] = origin
            }
        default:
            // Pushes, pops, presents, dismisses: keep the origins of the
            // common prefix, the rest is this event's.
            for (stack, values) in after.stacks where old.stacks[stack] != values {
                let kept = commonPrefix(old.stacks[stack] ?? [], values)
                let previous = origins.stacks[stack] ?? []
                origins.stacks[stack] = Array(previous.prefix(kept)) + Array(repeating: origin, count: values.count - kept)
            }
            if old.modals != after.modals {
                let kept = commonPrefix(old.modals, after.modals)
                origins.modals = Array(origins.modals.prefix(kept)) + Array(repeating: origin, count: after.modals.count - kept)
            }
        }
        origins.hiddenTabs = hiddenTabOrigins(event, origin, old.tabs, after.tabs, origins.hiddenTabs)
        scenes[id] = origins
    }

    /// Who hid each hidden tab: a tab hidden by this event (newly, or named
    /// by the user's customization, or restored) is this event's; one that
    /// stays hidden keeps its origin.
    private func hiddenTabOrigins(
        _ event: Event, _ origin: Origin, _ old: TabState, _ new: TabState, _ previous: [String: Origin]
    ) -> [String: Origin] {
        var out: [String: Origin] = [:]
        for tab in new.hidden {
            let hidesIt: Bool
            switch event.kind {
            case .stateRestore: hidesIt = true
            case .tabsCustomize(_, let hidden): hidesIt = hidden.contains(tab)
            default: hidesIt = !old.hidden.contains(tab)
            }
            if let by = hidesIt ? origin : previous[tab] { out[tab] = by }
        }
        return out
    }

    /// The `url.open` that `event`'s cause chain leads to, if any.
    public func deepLink(behind event: Event) -> Event? {
        var cause = event.cause
        var hops = 0
        while let seq = cause, hops < Self.maxCauseHops {
            if let url = urlOpens[seq] { return url }
            cause = causes[seq]
            hops += 1
        }
        return nil
    }

    private func commonPrefix<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
        var n = 0
        while n < a.count, n < b.count, a[n] == b[n] { n += 1 }
        return n
    }
}

extension EventKind {
    /// Kinds that are the origin of what they set even when nothing changed.
    var setsOrigins: Bool {
        switch self {
        case .stackSet, .stateRestore, .splitSelect, .tabsCustomize: true
        default: false
        }
    }
}
