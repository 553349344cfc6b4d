/// The visible screen of a scene (contract §2).
extension SceneState {
    /// The scene's visible screen: a route value's screen name (`Recipe/apple-pie`),
    /// `modal:<id>`, `tab:<id>`, `split:<id>` or `root`.
    ///
    /// The first rule that applies:
    /// 1. a modal is presented: the top value of the top modal's stack, else
    ///    `modal:<id>`;
    /// 2. a tab is selected (hidden or not): if a split has the tab's id, the
    ///    split rule; else the top of the tab's stack, else `tab:<id>`;
    /// 3. a split `main` exists: the split rule;
    /// 4. the top of stack `main`, else `root`.
    ///
    /// The split rule for split `S`: the top of stack `S`; else the first
    /// value of the first non-empty column among detail, content, sidebar;
    /// else `split:<S>`. Visibility and size class do not matter.
    public var screen: String { screenKey.name }

    /// The visible screen without building its name.
    var screenKey: ScreenKey {
        if let top = modals.last {
            if let value = stacks[top.modal]?.last { return ScreenKey(value) }
            return .modal(top.modal)
        }
        if let tab = tabs.selected {
            if splits.index(forKey: tab) != nil { return splitScreenKey(tab) }
            if let value = stacks[tab]?.last { return ScreenKey(value) }
            return .tab(tab)
        }
        if splits.index(forKey: "main") != nil { return splitScreenKey("main") }
        if let value = stacks["main"]?.last { return ScreenKey(value) }
        return .root
    }

    /// The split rule for split `id`, which exists.
    private func splitScreenKey(_ id: String) -> ScreenKey {
        if let value = stacks[id]?.last { return ScreenKey(value) }
        if let split = splits[id] {
            if let value = split.detail.first ?? split.content.first ?? split.sidebar.first {
                return ScreenKey(value)
            }
        }
        return .split(id)
    }
}

/// A visible screen as its parts, so that screens can be compared without
/// building their names. Two keys with equal parts have equal names; keys
/// with different parts may still share a name (a route value of type
/// `tab:home` looks like tab `home`), so compare names when parts differ.
enum ScreenKey: Hashable, Sendable {
    case root
    case route(type: String, id: String?)
    case modal(String)
    case tab(String)
    case split(String)

    init(_ value: RouteValue) { self = .route(type: value.type, id: value.id) }

    /// The screen name.
    var name: String {
        switch self {
        case .root: "root"
        case .route(let type, let id): id.map { type + "/" + $0 } ?? type
        case .modal(let id): "modal:" + id
        case .tab(let id): "tab:" + id
        case .split(let id): "split:" + id
        }
    }
}
