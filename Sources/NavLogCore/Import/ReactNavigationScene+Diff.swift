extension ReactNavigationScene {
    /// The events that lead from `old` to this scene (schemas/imports.md):
    /// a dismissal, the tab order, every stack change, the tab selection,
    /// then presentations — stacks change before the tab or modal that
    /// shows them, so a change the user saw once is one screen view.
    ///
    /// A stack grown by one route is a `stack.push`, shrunk to a prefix a
    /// `stack.pop` (or `stack.popToRoot` when emptied), anything else a
    /// `stack.set`; a stack the new tree no longer shows is emptied. When the
    /// tree loses its tab navigator, no event can unselect a tab: that change
    /// is one `state.restore` of the new scene.
    public func events(from old: ReactNavigationScene) -> [EventKind] {
        if old.tabs != nil, tabs == nil, let restore = restoreEvent() { return [restore] }
        var out: [EventKind] = []
        var common = 0
        while common < old.modals.count, common < modals.count, old.modals[common] == modals[common] { common += 1 }
        if common < old.modals.count { out.append(.modalDismiss(modal: old.modals[common])) }
        if let tabs, tabs != old.tabs { out.append(.tabsDefine(tabs: tabs)) }
        for name in Set(stacks.keys).union(old.stacks.keys).sorted(by: utf8Less) {
            Self.stackEvents(name, from: old.stacks[name] ?? [], to: stacks[name] ?? [], into: &out)
        }
        if let selectedTab, selectedTab != old.selectedTab { out.append(.tabSelect(tab: selectedTab)) }
        for modal in modals[common...] { out.append(.modalPresent(modal: modal, style: .sheet)) }
        return out
    }

    static func stackEvents(_ name: String, from old: [RouteValue], to new: [RouteValue], into out: inout [EventKind]) {
        if old == new { return }
        if new.isEmpty {
            out.append(.stackPopToRoot(stack: name))
        } else if new.count == old.count + 1, new.starts(with: old) {
            out.append(.stackPush(stack: name, value: new[new.count - 1]))
        } else if new.count < old.count, old.starts(with: new) {
            out.append(.stackPop(stack: name, count: old.count - new.count))
        } else {
            out.append(.stackSet(stack: name, path: new))
        }
    }

    /// This scene as a `state.restore`.
    func restoreEvent() -> EventKind? {
        var object: [String: JSONValue] = [
            "stacks": .object(stacks.mapValues(\.jsonValue)),
            "modals": .array(modals.map { .object(["modal": .string($0), "style": .string("sheet")]) }),
        ]
        if let tabs {
            object["tabs"] = .object(["order": .array(tabs.map { .string($0) }), "selected": selectedTab.map { .string($0) } ?? .null])
        }
        guard let (state, canonical) = try? SceneState.decodeRestore(object) else { return nil }
        return .stateRestore(state: state, json: canonical)
    }
}
