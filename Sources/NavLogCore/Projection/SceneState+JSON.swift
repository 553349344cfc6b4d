/// Scene state as the JSON of docs/state.md.
extension SceneState {
    /// The scene object of docs/state.md, always with every key:
    ///
    /// ```json
    /// {"modals":[{"modal":"settings","style":"sheet"}],"screen":"modal:settings",
    ///  "sizeClass":null,"splits":{},"stacks":{"home":[]},
    ///  "tabs":{"hidden":[],"order":["home"],"selected":"home"}}
    /// ```
    ///
    /// `sizeClass` and `tabs.selected` are `null` until set; `screen` is the
    /// derived ``screen``.
    public var jsonValue: JSONValue {
        var stackObject: [String: JSONValue] = [:]
        stackObject.reserveCapacity(stacks.count)
        for (id, path) in stacks { stackObject[id] = path.jsonValue }
        var splitObject: [String: JSONValue] = [:]
        splitObject.reserveCapacity(splits.count)
        for (id, split) in splits { splitObject[id] = split.jsonValue }
        return .object([
            "modals": .array(modals.map(\.jsonValue)),
            "screen": .string(screen),
            "sizeClass": sizeClass.map { .string($0.rawValue) } ?? .null,
            "splits": .object(splitObject),
            "stacks": .object(stackObject),
            "tabs": tabs.jsonValue,
        ])
    }
}

extension ModalPresentation {
    /// `{"modal":"settings","style":"sheet"}`.
    public var jsonValue: JSONValue {
        .object(["modal": .string(modal), "style": .string(style.rawValue)])
    }
}

extension SplitState {
    /// `{"content":[…],"detail":[…],"sidebar":[…],"visibility":"automatic"}`.
    public var jsonValue: JSONValue {
        .object([
            "content": content.jsonValue,
            "detail": detail.jsonValue,
            "sidebar": sidebar.jsonValue,
            "visibility": .string(visibility.rawValue),
        ])
    }
}

extension TabState {
    /// `{"hidden":[…],"order":[…],"selected":"home"}`, `selected` `null` until set;
    /// `sections` (`[{"name":…,"tabs":[…]}]`), `searchTab`, `presentation`
    /// and `customized` (`true`) only once set, so that a scene that never
    /// had them prints as it always did.
    ///
    /// `hidden` is listed in tab order. The projection keeps every hidden tab
    /// in the order; should a hand-built state hide a tab that is not, it is
    /// listed after the others, in code point order.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "hidden": .array(hiddenInOrder.map { .string($0) }),
            "order": .array(order.map { .string($0) }),
            "selected": selected.map { .string($0) } ?? .null,
        ]
        if let sections { object["sections"] = .array(sections.map(\.jsonValue)) }
        if let searchTab { object["searchTab"] = .string(searchTab) }
        if let presentation { object["presentation"] = .string(presentation.rawValue) }
        if customized { object["customized"] = .bool(true) }
        return .object(object)
    }

    /// The hidden tabs in tab order (then any not in the order, sorted).
    public var hiddenInOrder: [String] {
        if hidden.isEmpty { return [] }
        var listed = order.filter { hidden.contains($0) }
        if listed.count < hidden.count {
            listed += hidden.filter { !order.contains($0) }.sorted(by: utf8Less)
        }
        return listed
    }
}

extension TabSection {
    /// `{"name":"Collections","tabs":["favorites","recent"]}`.
    public var jsonValue: JSONValue {
        .object(["name": .string(name), "tabs": .array(tabs.map { .string($0) })])
    }
}
