/// The sample generator's own picture of one scene, kept in step with every
/// event it emits (by the rules of docs/state.md, anomalies included), so that its
/// next choice is sensible: it pops only what is there, selects visible tabs,
/// dismisses what is presented.
struct SampleSceneModel {
    /// How the scene's root view is built.
    enum Layout: Equatable {
        /// A TabView of per-tab NavigationStacks (phones).
        case tabs
        /// A NavigationSplitView `main` with a detail stack `main` (iPad).
        case split
        /// A TabView whose `browse` tab hosts a split `browse` (iPad).
        case tabsWithSplit
    }

    /// Where the user is in the scene: what the next action works on.
    enum Context {
        case modal(ModalPresentation)
        case tab(String)
        case split(String)
    }

    let id: String
    /// The `scene` field as written (`nil` leaves it out, meaning `main`).
    let field: String?
    let layout: Layout
    /// The split of this layout (`main` or `browse`), if it has one.
    let splitID: String?

    /// The scene as the projection has it after the events emitted so far.
    private(set) var state = SceneState()

    /// Tab order.
    var tabs: [String] { state.tabs.order }
    /// Hidden tabs, in tab order.
    var hidden: [String] { state.tabs.hidden.isEmpty ? [] : tabs.filter { state.tabs.hidden.contains($0) } }
    var selected: String? { state.tabs.selected }
    /// The layout's split once an event has named it.
    var split: SplitState? { splitID.flatMap { state.splits[$0] } }
    var modals: [ModalPresentation] { state.modals }
    var sizeClass: SizeClass? { state.sizeClass }

    init(id: String, field: String?, layout: Layout) {
        self.id = id
        self.field = field
        self.layout = layout
        switch layout {
        case .tabs: splitID = nil
        case .split: splitID = "main"
        case .tabsWithSplit: splitID = "browse"
        }
    }

    /// Forgets everything (the scene was closed and opened again).
    mutating func reset() {
        state = SceneState()
    }

    // MARK: Reading

    func path(_ stack: String) -> [RouteValue] { state.stacks[stack] ?? [] }

    func isPresented(_ modal: String) -> Bool { modals.contains { $0.modal == modal } }

    /// Whether presenting `modal` would show the path its stack kept from an
    /// earlier presentation (dismissing leaves a modal's stack as it was).
    func keepsOldPath(of modal: SampleCatalog.Modal) -> Bool {
        modal.flow != .none && !path(modal.id).isEmpty
    }

    var context: Context {
        if let top = modals.last { return .modal(top) }
        switch layout {
        case .split: return .split("main")
        case .tabs, .tabsWithSplit:
            let tab = selected ?? tabs.first ?? "home"
            return tab == splitID ? .split(tab) : .tab(tab)
        }
    }

    /// The route value on screen by the screen rule of docs/state.md, or `nil`
    /// when the screen is a placeholder (`root`, `tab:…`, `modal:…`, `split:…`).
    var focus: RouteValue? {
        if let top = modals.last { return path(top.modal).last }
        if let tab = selected {
            if tab == splitID, split != nil { return splitFocus(tab) }
            return path(tab).last
        }
        if splitID == "main", split != nil { return splitFocus("main") }
        return path("main").last
    }

    private func splitFocus(_ id: String) -> RouteValue? {
        if let top = path(id).last { return top }
        guard let split else { return nil }
        return split.detail.first ?? split.content.first ?? split.sidebar.first
    }

    /// The visible screen's name (docs/state.md), for `state.restore` objects.
    var screen: String { state.screen }

    // MARK: Applying events

    /// Applies one event's effect on this scene by the projection's rules
    /// and returns the anomaly it records, if any (`after-end` is the session's).
    mutating func apply(_ kind: EventKind) -> AnomalyKind? {
        state.apply(kind)
    }

    // MARK: As a scene object of docs/state.md

    /// This scene as the core's ``SceneState`` and as the §2 JSON object a
    /// `state.restore` event carries.
    var restoreState: (state: SceneState, json: [String: JSONValue]) {
        let split = self.split
        var splitsJSON: [String: JSONValue] = [:]
        if let splitID, let split {
            splitsJSON[splitID] = .object([
                "sidebar": .array(split.sidebar.map(routeJSON)),
                "content": .array(split.content.map(routeJSON)),
                "detail": .array(split.detail.map(routeJSON)),
                "visibility": .string(split.visibility.rawValue),
            ])
        }
        var tabsJSON: [String: JSONValue] = [
            "hidden": .array(hidden.map { .string($0) }),
            "order": .array(tabs.map { .string($0) }),
            "selected": selected.map { .string($0) } ?? .null,
        ]
        if let sections = state.tabs.sections {
            tabsJSON["sections"] = .array(sections.map { .object(["name": .string($0.name), "tabs": .array($0.tabs.map { .string($0) })]) })
        }
        if let searchTab = state.tabs.searchTab { tabsJSON["searchTab"] = .string(searchTab) }
        if let presentation = state.tabs.presentation { tabsJSON["presentation"] = .string(presentation.rawValue) }
        if state.tabs.customized { tabsJSON["customized"] = .bool(true) }
        let json: [String: JSONValue] = [
            "modals": .array(modals.map { .object(["modal": .string($0.modal), "style": .string($0.style.rawValue)]) }),
            "screen": .string(state.screen),
            "sizeClass": sizeClass.map { .string($0.rawValue) } ?? .null,
            "splits": .object(splitsJSON),
            "stacks": .object(state.stacks.mapValues { .array($0.map(routeJSON)) }),
            "tabs": .object(tabsJSON),
        ]
        return (state, json)
    }
}

/// A route value as a JSON object (`type`, `id`, `data`).
private func routeJSON(_ value: RouteValue) -> JSONValue {
    var members: [String: JSONValue] = ["type": .string(value.type)]
    if let id = value.id { members["id"] = .string(id) }
    if let data = value.data { members["data"] = data }
    return .object(members)
}
