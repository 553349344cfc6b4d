/// One change an event made to the navigation state, as `navlog replay`
/// shows it: `pushed Recipe/apple-pie on home`, `selected tab search`,
/// `screen now Recipe/apple-pie`, `anomaly pop-underflow`.
///
/// The changes of an event are computed from the state before and after it
/// (``effects(of:before:after:anomalies:)``), so they always say what the
/// projection did, not what the event asked for: a `tab.select` of the tab
/// already selected changes nothing, a pop of more than the stack holds pops
/// what there was.
///
/// ```swift
/// var state = NavigationState(session: "s-1")
/// for event in events {
///     let effects = state.applyDescribing(event)
///     print(effects.map(\.description).joined(separator: "; "))
/// }
/// ```
public enum EventEffect: Hashable, Sendable {
    /// `session.start`: the session began; the app's `version` when it has one.
    case sessionStarted(appVersion: String?)
    /// `session.end` marked the session ended.
    case sessionEnded
    /// The scene appears (`scene.open`, or the first event that names it).
    case sceneOpened(String)
    /// `scene.close` removed the scene.
    case sceneClosed(String)
    /// `state.restore` replaced the scene's state.
    case sceneRestored(String)
    /// The tab order is now this (`tabs.define`).
    case tabsDefined([String])
    /// `tabs.customize`: what follows is the user's own customization.
    case tabsCustomized
    /// The sidebar's sections are now these.
    case tabSections([TabSection])
    /// The search tab is now this (`nil`: none, `tabs.define` dropped it).
    case searchTab(String?)
    /// A `sidebarAdaptable` TabView now shows its tabs this way.
    case tabPresentation(TabPresentation?)
    /// Tabs appended to the order by a `tab.select` or `tab.visibility` of a
    /// tab it did not hold (shown only when the event's own change does not
    /// name them already).
    case tabsAdded([String])
    /// The selected tab is now this.
    case tabSelected(String)
    /// The tab is now hidden.
    case tabHidden(String)
    /// The tab is shown again.
    case tabShown(String)
    /// Values pushed on top of a stack, bottom first.
    case pushed([RouteValue], stack: String)
    /// This many values popped off a stack.
    case popped(Int, stack: String)
    /// The stack's whole path is now this (`stack.set`, `popToRoot`, a
    /// stack created empty, or any other change that is not a push or pop).
    case stackIs(String, path: [RouteValue])
    /// A split appeared with nothing else set (`split.visibility automatic`).
    case splitCreated(String)
    /// A split column's selection is now this (empty: none).
    case splitSelected(String, column: SplitColumn, selection: [RouteValue])
    /// A split's column visibility is now this.
    case splitVisibility(String, SplitVisibility)
    /// A modal was presented on top of the modal stack.
    case presented(ModalPresentation)
    /// Modals were dismissed: the first one and those above it, bottom first.
    case dismissed([String])
    /// The scene's horizontal size class is now this (`nil`: unset).
    case sizeClass(SizeClass?)
    /// `url.open`: a deep link arrived.
    case deepLink(String)
    /// `mark`: an app-defined milestone.
    case mark(String)
    /// An event of a kind navlog does not know: kept, no effect on state.
    case unknownKind(String)
    /// The event's scene now shows this screen (``SceneState/screen``).
    case screen(String)
    /// The event was a surprising but well-formed one (docs/events.md).
    case anomaly(AnomalyKind)
}

extension EventEffect: CustomStringConvertible {
    /// The change as one short phrase: `pushed Recipe/apple-pie on home`,
    /// `popped 2 from home`, `home → (empty)`, `presented sheet settings`,
    /// `dismissed settings (and compose above it)`, `screen now Recipe/apple-pie`.
    public var description: String {
        switch self {
        case .sessionStarted(let version):
            return version.map { "session started (app \(ReadableText.escaped($0)))" } ?? "session started"
        case .sessionEnded:
            return "session ended"
        case .sceneOpened(let id):
            return "scene \(Self.name(id)) opened"
        case .sceneClosed(let id):
            return "scene \(Self.name(id)) closed"
        case .sceneRestored(let id):
            return "restored scene \(Self.name(id))"
        case .tabsDefined(let tabs):
            return tabs.isEmpty ? "tabs (none)" : "tabs " + tabs.map(Self.name).joined(separator: ", ")
        case .tabsCustomized:
            return "user customization"
        case .tabSections(let sections):
            if sections.isEmpty { return "sections (none)" }
            return "sections " + sections.map { section in
                Self.name(section.name) + " (" + (section.tabs.isEmpty ? "none" : section.tabs.map(Self.name).joined(separator: ", ")) + ")"
            }.joined(separator: ", ")
        case .searchTab(let tab):
            return "search tab " + (tab.map(Self.name) ?? "unset")
        case .tabPresentation(let presentation):
            return "tabs as " + (presentation?.rawValue ?? "unset")
        case .tabsAdded(let tabs):
            return (tabs.count == 1 ? "added tab " : "added tabs ") + tabs.map(Self.name).joined(separator: ", ")
        case .tabSelected(let tab):
            return "selected tab \(Self.name(tab))"
        case .tabHidden(let tab):
            return "hid tab \(Self.name(tab))"
        case .tabShown(let tab):
            return "showed tab \(Self.name(tab))"
        case .pushed(let values, let stack):
            return "pushed " + Self.path(values) + " on " + Self.name(stack)
        case .popped(let count, let stack):
            return "popped \(count) from \(Self.name(stack))"
        case .stackIs(let stack, let path):
            return Self.name(stack) + " → " + Self.path(path)
        case .splitCreated(let split):
            return "split \(Self.name(split)) created"
        case .splitSelected(let split, let column, let selection):
            let values = selection.isEmpty ? "(none)" : selection.map(ReadableText.screen).joined(separator: ", ")
            return "split \(Self.name(split)) \(column.rawValue): \(values)"
        case .splitVisibility(let split, let visibility):
            return "split \(Self.name(split)) visibility \(visibility.rawValue)"
        case .presented(let presentation):
            return "presented \(presentation.style.rawValue) \(Self.name(presentation.modal))"
        case .dismissed(let modals):
            guard let first = modals.first else { return "dismissed nothing" }
            if modals.count == 1 { return "dismissed \(Self.name(first))" }
            let above = modals.dropFirst()
            return "dismissed \(Self.name(first)) (and \(above.map(Self.name).joined(separator: ", ")) above it)"
        case .sizeClass(let sizeClass):
            return "size class " + (sizeClass?.rawValue ?? "unset")
        case .deepLink(let url):
            return "deep link \(Self.name(url))"
        case .mark(let label):
            return "mark \(Self.name(label))"
        case .unknownKind(let type):
            return "unknown kind \(Self.name(type)) (no effect)"
        case .screen(let screen):
            return "screen now \(Self.name(screen))"
        case .anomaly(let kind):
            return "anomaly \(kind.rawValue)"
        }
    }

    /// An id or label as shown: `""` when it is empty, so that it cannot
    /// vanish, control characters escaped (``ReadableText``).
    static func name(_ text: String) -> String { ReadableText.name(text) }

    /// A path as a breadcrumb, `Category/desserts › Recipe/apple-pie`, or `(empty)`.
    static func path(_ values: [RouteValue]) -> String {
        values.isEmpty ? "(empty)" : values.map(ReadableText.screen).joined(separator: " › ")
    }

    /// Whether this is an ``anomaly(_:)``.
    public var isAnomaly: Bool {
        if case .anomaly = self { return true }
        return false
    }
}
