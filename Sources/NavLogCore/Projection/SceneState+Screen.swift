/// The visible screen of a scene (docs/state.md).
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
    public var screen: String { screenKey(SceneCache()).name }

    /// The visible screen without building its name; the stack in `cache`
    /// (this scene's) is found without hashing its id.
    func screenKey(_ cache: SceneCache) -> ScreenKey {
        visible(cache, stackTop: { value, _ in ScreenKey(value) }, columnFirst: { value, _, _ in ScreenKey(value) }, empty: { $0 })
    }

    /// Where the visible screen is: the stack whose top it is, the split
    /// column whose first value it is, or the modal, tab or split shown
    /// empty (`root`: none of these).
    public var visiblePlace: VisiblePlace {
        visible(SceneCache(), stackTop: { _, stack in .stack(stack) }, columnFirst: { _, split, column in .column(split: split, column: column) },
                empty: { key in
                    switch key {
                    case .modal(let id): .modal(id)
                    case .tab(let id): .tab(id)
                    case .split(let id): .split(id)
                    case .root, .route: .root
                    }
                })
    }

    /// The rules above, once: `stackTop` for the top value of a stack,
    /// `columnFirst` for the first value of a split's column, `empty` for a
    /// modal, tab or split with no value to show, or `root`.
    @inline(__always)
    private func visible<R>(_ cache: SceneCache, stackTop: (RouteValue, String) -> R, columnFirst: (RouteValue, String, String) -> R,
                            empty: (ScreenKey) -> R) -> R {
        if let modal = modals.last?.modal {
            if let value = top(ofStack: modal, cache) { return stackTop(value, modal) }
            return empty(.modal(modal))
        }
        if let tab = tabs.selected {
            if !splits.isEmpty, splits.index(forKey: tab) != nil { return splitRule(tab, cache, stackTop, columnFirst, empty) }
            if let value = top(ofStack: tab, cache) { return stackTop(value, tab) }
            return empty(.tab(tab))
        }
        if !splits.isEmpty, splits.index(forKey: "main") != nil { return splitRule("main", cache, stackTop, columnFirst, empty) }
        if let value = top(ofStack: "main", cache) { return stackTop(value, "main") }
        return empty(.root)
    }

    /// The top of stack `id`; the stack the fold last changed is found
    /// without hashing its id.
    @inline(__always)
    private func top(ofStack id: String, _ cache: SceneCache) -> RouteValue? {
        if let last = cache.stack, last.id == id { return stacks.values[last.index].last }
        return stacks.isEmpty ? nil : stacks[id]?.last
    }

    /// The split rule for split `id`, which exists.
    @inline(__always)
    private func splitRule<R>(_ id: String, _ cache: SceneCache, _ stackTop: (RouteValue, String) -> R,
                              _ columnFirst: (RouteValue, String, String) -> R, _ empty: (ScreenKey) -> R) -> R {
        if let value = top(ofStack: id, cache) { return stackTop(value, id) }
        if let split = splits[id] {
            if let value = split.detail.first { return columnFirst(value, id, "detail") }
            if let value = split.content.first { return columnFirst(value, id, "content") }
            if let value = split.sidebar.first { return columnFirst(value, id, "sidebar") }
        }
        return empty(.split(id))
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

    /// Whether the two keys name the same screen (`name == other.name`),
    /// mostly without building the names: names of different lengths differ.
    func hasSameName(as other: ScreenKey) -> Bool {
        if self == other { return true }
        guard nameLength == other.nameLength else { return false }
        return name == other.name
    }

    /// The length of ``name`` in UTF-8 bytes.
    private var nameLength: Int {
        switch self {
        case .root: 4
        case .route(let type, let id): id.map { type.utf8.count + 1 + $0.utf8.count } ?? type.utf8.count
        case .modal(let id): 6 + id.utf8.count
        case .tab(let id): 4 + id.utf8.count
        case .split(let id): 6 + id.utf8.count
        }
    }

    /// The screen name.
    var name: String {
        switch self {
        case .root: "root"
        case .route(let type, let id): id.map { Self.joined(type, $0) } ?? type
        case .modal(let id): "modal:" + id
        case .tab(let id): "tab:" + id
        case .split(let id): "split:" + id
        }
    }

    /// `type/id`, built in one allocation (not via `type + "/"`).
    private static func joined(_ type: String, _ id: String) -> String {
        var type = type, id = id
        let count = type.utf8.count + 1 + id.utf8.count
        return type.withUTF8 { head in
            id.withUTF8 { tail in
                String(unsafeUninitializedCapacity: count) { out in
                    let base = out.baseAddress!
                    if let from = head.baseAddress { base.update(from: from, count: head.count) }
                    base[head.count] = UInt8(ascii: "/")
                    if let from = tail.baseAddress { (base + head.count + 1).update(from: from, count: tail.count) }
                    return count
                }
            }
        }
    }
}
