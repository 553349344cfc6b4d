extension ReactNavigationScene {
    /// The events that lead from `old` to this scene (schemas/imports.md):
    /// dismissals, tab order, stack changes off screen, the tab selection,
    /// the selected tab's stack, then presentations — so a change the user
    /// saw once is one screen view.
    ///
    /// A stack grown by one route is a `stack.push`, shrunk to a prefix a
    /// `stack.pop` (or `stack.popToRoot` when emptied), anything else a
    /// `stack.set`; a stack the new tree no longer shows is emptied.
    public func events(from old: ReactNavigationScene) -> [EventKind] {
        var out: [EventKind] = []
        var common = 0
        while common < old.modals.count, common < modals.count, old.modals[common] == modals[common] { common += 1 }
        if common < old.modals.count { out.append(.modalDismiss(modal: old.modals[common])) }
        if let tabs, tabs != old.tabs { out.append(.tabsDefine(tabs: tabs)) }
        let names = Set(stacks.keys).union(old.stacks.keys).sorted(by: utf8Less)
        for name in names where name != selectedTab {
            Self.stackEvents(name, from: old.stacks[name], to: stacks[name], into: &out)
        }
        if let selectedTab, selectedTab != old.selectedTab { out.append(.tabSelect(tab: selectedTab)) }
        if let selectedTab {
            Self.stackEvents(selectedTab, from: old.stacks[selectedTab], to: stacks[selectedTab], into: &out)
        }
        for modal in modals[common...] { out.append(.modalPresent(modal: modal, style: .sheet)) }
        return out
    }

    static func stackEvents(_ name: String, from old: [RouteValue]?, to new: [RouteValue]?, into out: inout [EventKind]) {
        let before = old ?? []
        guard let new else {
            if !before.isEmpty { out.append(.stackPopToRoot(stack: name)) }
            return
        }
        if old != nil, before == new { return }
        guard let old, !old.isEmpty else {
            out.append(new.count == 1 ? .stackPush(stack: name, value: new[0]) : .stackSet(stack: name, path: new))
            return
        }
        if new.isEmpty { out.append(.stackPopToRoot(stack: name)); return }
        if new.count == old.count + 1, new.starts(with: old) {
            out.append(.stackPush(stack: name, value: new[new.count - 1]))
        } else if new.count < old.count, old.starts(with: new) {
            out.append(.stackPop(stack: name, count: old.count - new.count))
        } else {
            out.append(.stackSet(stack: name, path: new))
        }
    }
}
