/// What a projection answers: the navigation state of a session after some
/// prefix of its events (docs/state.md). A plain value: `==` and hashing
/// compare every field (the session id by its exact bytes, ``SessionID``).
///
/// Two states are *equal* in the sense of docs/state.md when their ``scenes`` are
/// equal; use ``sameScenes(as:)`` for that. To fold many events, use a
/// ``NavigationProjector``.
public struct NavigationState: Hashable, Sendable {
    /// The session id.
    public var session: String {
        get { sessionID.id }
        set { sessionID = SessionID(newValue) }
    }
    /// The seq of the last applied event; `0` when none was applied.
    public var seq: Int
    /// The time of the last applied event; `nil` when none was applied.
    public var t: Timestamp?
    /// How many anomalies of each kind occurred; only kinds that occurred.
    public var anomalies: [AnomalyKind: Int]
    /// Each open scene's state, by scene id.
    public var scenes: [String: SceneState]
    /// Whether a `session.end` has been applied (later events are `after-end`).
    public var ended: Bool

    /// Where ``session`` is kept: compared by its bytes.
    private var sessionID: SessionID

    /// The empty state of a session: no event applied.
    public init(session: String) {
        self.sessionID = SessionID(session)
        self.seq = 0
        self.t = nil
        self.anomalies = [:]
        self.scenes = [:]
        self.ended = false
    }

    /// Contract equality: the `scenes` objects are equal.
    public func sameScenes(as other: NavigationState) -> Bool { scenes == other.scenes }
}

/// The navigation state of one scene (window).
public struct SceneState: Hashable, Sendable {
    /// The modal stack, bottom first.
    public var modals: [ModalPresentation]
    /// The horizontal size class; `nil` until set.
    public var sizeClass: SizeClass?
    /// Split views by id.
    public var splits: [String: SplitState]
    /// Navigation stacks by id, bottom first; an emptied stack stays `[]`.
    public var stacks: [String: [RouteValue]]
    /// Tab order, hidden tabs and selection.
    public var tabs: TabState

    /// A new, empty scene (its screen is `root`).
    public init(
        modals: [ModalPresentation] = [], sizeClass: SizeClass? = nil,
        splits: [String: SplitState] = [:], stacks: [String: [RouteValue]] = [:],
        tabs: TabState = TabState()
    ) {
        self.modals = modals
        self.sizeClass = sizeClass
        self.splits = splits
        self.stacks = stacks
        self.tabs = tabs
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
///
/// ``sections``, ``searchTab``, ``presentation`` and ``customized`` are
/// the tab model of iOS 18 and later; they are unset (`nil`, `false`) until
/// an event sets them, and are then printed (docs/tabs.md). None of them
/// changes the visible screen.
public struct TabState: Hashable, Sendable {
    /// Tab order.
    public var order: [String]
    /// Hidden tabs, whoever hid them (the app or the user's customization;
    /// listed in tab order when printed).
    public var hidden: Set<String>
    /// The selected tab; `nil` until one is selected.
    public var selected: String?
    /// The sidebar's groups (`TabSection`); `nil` until `tabs.define` gives them.
    public var sections: [TabSection]?
    /// The tab with role `.search`; `nil` until `tabs.define` names one.
    public var searchTab: String?
    /// How a `sidebarAdaptable` TabView shows the tabs; `nil` until a
    /// `layout.change` says.
    public var presentation: TabPresentation?
    /// Whether a `tabs.customize` (the user's own customization) applied.
    public var customized: Bool

    public init(
        order: [String] = [], hidden: Set<String> = [], selected: String? = nil,
        sections: [TabSection]? = nil, searchTab: String? = nil, presentation: TabPresentation? = nil,
        customized: Bool = false
    ) {
        self.order = order
        self.hidden = hidden
        self.selected = selected
        self.sections = sections
        self.searchTab = searchTab
        self.presentation = presentation
        self.customized = customized
    }
}

/// A surprising but well-formed event, counted by kind (docs/events.md).
public enum AnomalyKind: String, Hashable, Sendable, CaseIterable, Comparable {
    case popUnderflow = "pop-underflow"
    case dismissUnknown = "dismiss-unknown"
    case dismissEmpty = "dismiss-empty"
    case presentDuplicate = "present-duplicate"
    case selectHidden = "select-hidden"
    case afterEnd = "after-end"

    public static func < (a: AnomalyKind, b: AnomalyKind) -> Bool { a.rawValue < b.rawValue }
}
