/// The sample generator's own picture of one scene, kept in step with every
/// event it emits (by the contract's rules, anomalies included), so that its
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

    var tabs: [String] = []
    var hidden: [String] = []
    var selected: String?
    /// Stacks by id, in creation order.
    var stackIDs: [String] = []
    var stackPaths: [[RouteValue]] = []
    /// The layout's split once an event has named it.
    var split: SplitState?
    var modals: [ModalPresentation] = []
    var sizeClass: SizeClass?

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
        tabs = []
        hidden = []
        selected = nil
        stackIDs = []
        stackPaths = []
        split = nil
        modals = []
        sizeClass = nil
    }

    // MARK: Reading

    func path(_ stack: String) -> [RouteValue] {
        if let i = stackIDs.firstIndex(of: stack) { return stackPaths[i] }
        return []
    }

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

    /// The route value on screen by the contract's screen rule (§2), or `nil`
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

    /// The visible screen's name (contract §2), for `state.restore` objects.
    var screen: String {
        if let top = modals.last { return path(top.modal).last?.screenName ?? "modal:" + top.modal }
        if let tab = selected {
            if tab == splitID, split != nil { return splitFocus(tab)?.screenName ?? "split:" + tab }
            return path(tab).last?.screenName ?? "tab:" + tab
        }
        if splitID == "main", split != nil { return splitFocus("main")?.screenName ?? "split:main" }
        return path("main").last?.screenName ?? "root"
    }

    // MARK: Applying events

    private mutating func withPath(_ stack: String, _ body: (inout [RouteValue]) -> Void) {
        if let i = stackIDs.firstIndex(of: stack) {
            body(&stackPaths[i])
        } else {
            var path: [RouteValue] = []
            body(&path)
            stackIDs.append(stack)
            stackPaths.append(path)
        }
    }

    /// Applies one event's effect on this scene, as the projection does, and
    /// returns the anomaly it records, if any (`after-end` is the session's).
    mutating func apply(_ kind: EventKind) -> AnomalyKind? {
        switch kind {
        case .tabsDefine(let defined):
            var order: [String] = []
            for t in defined where !order.contains(t) { order.append(t) }
            tabs = order
            hidden.removeAll { !order.contains($0) }
        case .tabSelect(let tab):
            if !tabs.contains(tab) { tabs.append(tab) }
            selected = tab
            if hidden.contains(tab) { return .selectHidden }
        case .tabVisibility(let tab, let isHidden):
            if isHidden {
                if !hidden.contains(tab) { hidden.append(tab) }
            } else {
                hidden.removeAll { $0 == tab }
            }
        case .stackPush(let stack, let value):
            withPath(stack) { $0.append(value) }
        case .stackPop(let stack, let count):
            let n = count ?? 1
            var underflow = false
            withPath(stack) { path in
                underflow = n > path.count
                path.removeLast(min(n, path.count))
            }
            if underflow { return .popUnderflow }
        case .stackPopToRoot(let stack):
            withPath(stack) { $0.removeAll() }
        case .stackSet(let stack, let newPath):
            withPath(stack) { $0 = newPath }
        case .splitSelect(_, let column, let selection):
            var s = split ?? SplitState()
            s[column] = selection
            split = s
        case .splitVisibility(_, let visibility):
            var s = split ?? SplitState()
            s.visibility = visibility
            split = s
        case .modalPresent(let modal, let style):
            if isPresented(modal) { return .presentDuplicate }
            modals.append(ModalPresentation(modal: modal, style: style ?? .sheet))
        case .modalDismiss(let modal?):
            guard let i = modals.firstIndex(where: { $0.modal == modal }) else { return .dismissUnknown }
            modals.removeSubrange(i...)
        case .modalDismiss(nil):
            if modals.isEmpty { return .dismissEmpty }
            modals.removeLast()
        case .stateRestore(let state, _):
            restore(state)
        case .layoutChange(let newSizeClass):
            sizeClass = newSizeClass
        case .sessionStart, .sessionEnd, .sceneOpen, .sceneClose, .urlOpen, .mark, .other:
            break
        }
        return nil
    }

    private mutating func restore(_ state: SceneState) {
        reset()
        tabs = state.tabs.order
        hidden = state.tabs.order.filter { state.tabs.hidden.contains($0) }
        selected = state.tabs.selected
        for id in state.stacks.keys.sorted(by: utf8Less) {
            stackIDs.append(id)
            stackPaths.append(state.stacks[id]!)
        }
        if let splitID { split = state.splits[splitID] }
        modals = state.modals
        sizeClass = state.sizeClass
    }

    // MARK: As a contract scene object

    /// This scene as the core's ``SceneState`` and as the §2 JSON object a
    /// `state.restore` event carries.
    var restoreState: (state: SceneState, json: [String: JSONValue]) {
        var state = SceneState(sizeClass: sizeClass, tabs: TabState(order: tabs, hidden: Set(hidden), selected: selected))
        state.modals = modals
        var stacksJSON: [String: JSONValue] = [:]
        for (i, id) in stackIDs.enumerated() {
            state.stacks[id] = stackPaths[i]
            stacksJSON[id] = .array(stackPaths[i].map(routeJSON))
        }
        var splitsJSON: [String: JSONValue] = [:]
        if let splitID, let split {
            state.splits[splitID] = split
            splitsJSON[splitID] = .object([
                "sidebar": .array(split.sidebar.map(routeJSON)),
                "content": .array(split.content.map(routeJSON)),
                "detail": .array(split.detail.map(routeJSON)),
                "visibility": .string(split.visibility.rawValue),
            ])
        }
        let json: [String: JSONValue] = [
            "modals": .array(modals.map { .object(["modal": .string($0.modal), "style": .string($0.style.rawValue)]) }),
            "screen": .string(screen),
            "sizeClass": sizeClass.map { .string($0.rawValue) } ?? .null,
            "splits": .object(splitsJSON),
            "stacks": .object(stacksJSON),
            "tabs": .object([
                "hidden": .array(tabs.filter { hidden.contains($0) }.map { .string($0) }),
                "order": .array(tabs.map { .string($0) }),
                "selected": selected.map { .string($0) } ?? .null,
            ]),
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
