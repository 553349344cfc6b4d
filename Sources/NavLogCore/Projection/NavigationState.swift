/// What a projection answers: the navigation state of a session after some
/// prefix of its events (contract §2).
///
/// Two states are *equal* in the contract's sense when their ``scenes`` are
/// equal; use ``sameScenes(as:)`` for that. `==` compares everything.
public struct NavigationState: Hashable, Sendable {
    /// The session id.
    public var session: String
    /// The seq of the last applied event; `0` when none was applied.
    public var seq: Int
    /// The time of the last applied event; `nil` when none was applied.
    public var t: Timestamp?
    /// How many anomalies of each kind occurred; only kinds that occurred.
    public var anomalies: [AnomalyKind: Int]
    /// Each open scene's state, by scene id.
    public var scenes: [String: SceneState] {
        get { sceneTable }
        set {
            sceneTable = newValue
            lastScene = nil
            lastScreen = nil
        }
        _modify {
            lastScene = nil
            lastScreen = nil
            yield &sceneTable
        }
    }
    /// Whether a `session.end` has been applied (later events are `after-end`).
    public var ended: Bool

    /// Where ``scenes`` is kept.
    var sceneTable: [String: SceneState]
    /// The scene the fold last changed and its place in ``sceneTable``, so the
    /// next event for it needs no hash lookup. Cleared whenever the table's
    /// keys may change (the index would no longer be valid).
    var lastScene: (id: String, index: Dictionary<String, SceneState>.Index)?
    /// The visible screen of ``lastScene``'s scene, when the fold with
    /// screen views left it known; cleared by any other change to a scene.
    var lastScreen: ScreenKey?

    /// The empty state of a session: no event applied.
    public init(session: String) {
        self.session = session
        self.seq = 0
        self.t = nil
        self.anomalies = [:]
        self.sceneTable = [:]
        self.lastScene = nil
        self.ended = false
    }

    /// Contract equality: the `scenes` objects are equal.
    public func sameScenes(as other: NavigationState) -> Bool { sceneTable == other.sceneTable }

    /// Everything but the fold's lookup cache is compared.
    public static func == (a: NavigationState, b: NavigationState) -> Bool {
        SessionID.same(a.session, b.session) && a.seq == b.seq && a.t == b.t && a.anomalies == b.anomalies
            && a.ended == b.ended && a.sceneTable == b.sceneTable
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(session)
        hasher.combine(seq)
        hasher.combine(t)
        hasher.combine(anomalies)
        hasher.combine(ended)
        hasher.combine(sceneTable)
    }
}

/// The navigation state of one scene (window).
public struct SceneState: Hashable, Sendable {
    /// The modal stack, bottom first.
    public var modals: [ModalPresentation]
    /// The horizontal size class; `nil` until set.
    public var sizeClass: SizeClass?
    /// Split views by id.
    public var splits: [String: SplitState] {
        get { splitTable }
        set {
            splitTable = newValue
            lastSplit = nil
        }
        _modify {
            lastSplit = nil
            yield &splitTable
        }
    }
    /// Navigation stacks by id, bottom first; an emptied stack stays `[]`.
    public var stacks: [String: [RouteValue]] {
        get { stackTable }
        set {
            stackTable = newValue
            lastStack = nil
        }
        _modify {
            lastStack = nil
            yield &stackTable
        }
    }
    /// Tab order, hidden tabs and selection.
    public var tabs: TabState

    /// Where ``stacks`` is kept.
    var stackTable: [String: [RouteValue]]
    /// The stack the fold last changed and its place in ``stackTable`` (see
    /// ``NavigationState/lastScene``).
    var lastStack: (id: String, index: Dictionary<String, [RouteValue]>.Index)?
    /// Where ``splits`` is kept.
    var splitTable: [String: SplitState]
    /// The split the fold last changed and its place in ``splitTable``.
    var lastSplit: (id: String, index: Dictionary<String, SplitState>.Index)?

    /// A new, empty scene (its screen is `root`).
    public init(
        modals: [ModalPresentation] = [], sizeClass: SizeClass? = nil,
        splits: [String: SplitState] = [:], stacks: [String: [RouteValue]] = [:],
        tabs: TabState = TabState()
    ) {
        self.modals = modals
        self.sizeClass = sizeClass
        self.splitTable = splits
        self.lastSplit = nil
        self.stackTable = stacks
        self.lastStack = nil
        self.tabs = tabs
    }

    /// Everything but the fold's lookup cache is compared.
    public static func == (a: SceneState, b: SceneState) -> Bool {
        a.modals == b.modals && a.sizeClass == b.sizeClass && a.splitTable == b.splitTable
            && a.stackTable == b.stackTable && a.tabs == b.tabs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(modals)
        hasher.combine(sizeClass)
        hasher.combine(splitTable)
        hasher.combine(stackTable)
        hasher.combine(tabs)
    }
}

/// A presented modal.
public struct ModalPresentation: Hashable, Sendable {
    public var modal: String
    public var style: ModalStyle
    public init(modal: String, style: ModalStyle) {
        self.modal = modal
        self.style = style
    }
}

/// The state of one NavigationSplitView.
public struct SplitState: Hashable, Sendable {
    public var sidebar: [RouteValue]
    public var content: [RouteValue]
    public var detail: [RouteValue]
    public var visibility: SplitVisibility
    /// A new split: empty columns, visibility `automatic`.
    public init(
        sidebar: [RouteValue] = [], content: [RouteValue] = [], detail: [RouteValue] = [],
        visibility: SplitVisibility = .automatic
    ) {
        self.sidebar = sidebar
        self.content = content
        self.detail = detail
        self.visibility = visibility
    }

    /// The selection of one column.
    public subscript(column: SplitColumn) -> [RouteValue] {
        get {
            switch column {
            case .sidebar: sidebar
            case .content: content
            case .detail: detail
            }
        }
        set {
            switch column {
            case .sidebar: sidebar = newValue
            case .content: content = newValue
            case .detail: detail = newValue
            }
        }
    }
}

/// The state of a scene's TabView.
public struct TabState: Hashable, Sendable {
    /// Tab order.
    public var order: [String]
    /// Hidden tabs (listed in tab order when printed).
    public var hidden: Set<String>
    /// The selected tab; `nil` until one is selected.
    public var selected: String?
    public init(order: [String] = [], hidden: Set<String> = [], selected: String? = nil) {
        self.order = order
        self.hidden = hidden
        self.selected = selected
    }
}

/// A surprising but well-formed event, counted by kind (contract §1).
public enum AnomalyKind: String, Hashable, Sendable, CaseIterable, Comparable {
    case popUnderflow = "pop-underflow"
    case dismissUnknown = "dismiss-unknown"
    case dismissEmpty = "dismiss-empty"
    case presentDuplicate = "present-duplicate"
    case selectHidden = "select-hidden"
    case afterEnd = "after-end"

    public static func < (a: AnomalyKind, b: AnomalyKind) -> Bool { a.rawValue < b.rawValue }
}
