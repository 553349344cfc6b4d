/// `navlog diff --json` (schemas/diff.schema.json): only what differs.
///
/// ```json
/// {"same":false,"scenes":{"main":{"in":"both","screen":{"a":"Recipe/x","b":"tab:search"},
///   "stacks":{"home":{"a":[{"id":"x","type":"Recipe"}],"b":[],"common":[{"type":"Home"}],"in":"both"}},
///   "tabs":{"selected":{"a":"home","b":"search"}}}}}
/// ```
extension StateDiff {
    /// `{"same": bool, "scenes": {id: scene diff}}`; a scene diff holds `in`
    /// (`both`, `a` or `b`) and, only when they differ, `screen`, `tabs`
    /// (`selected`, `order`, `hidden`, `sections`, `searchTab`,
    /// `presentation`, `customized`; `null` for one never set), `stacks`, `splits`, `modals`,
    /// `sizeClass`. A change is `{"a": …, "b": …}`; a sequence is
    /// `{"common": […], "a": [tail], "b": [tail]}`.
    public var jsonValue: JSONValue {
        var scenes: [String: JSONValue] = [:]
        for scene in self.scenes { scenes[scene.scene] = scene.jsonValue }
        return .object(["same": .bool(isEmpty), "scenes": .object(scenes)])
    }
}

extension SceneDiff {
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["in": .string(presence.rawValue)]
        if let screen { object["screen"] = change(screen) { $0.map(JSONValue.string) ?? .null } }
        var tabs: [String: JSONValue] = [:]
        if let selectedTab { tabs["selected"] = change(selectedTab) { $0.map(JSONValue.string) ?? .null } }
        if let tabOrder { tabs["order"] = tails(tabOrder) { .string($0) } }
        if let hiddenTabs { tabs["hidden"] = change(hiddenTabs) { .array($0.map(JSONValue.string)) } }
        if let tabSections { tabs["sections"] = change(tabSections) { $0.map { .array($0.map(\.jsonValue)) } ?? .null } }
        if let searchTab { tabs["searchTab"] = change(searchTab) { $0.map(JSONValue.string) ?? .null } }
        if let tabPresentation { tabs["presentation"] = change(tabPresentation) { $0.map { .string($0.rawValue) } ?? .null } }
        if let customized { tabs["customized"] = change(customized) { .bool($0) } }
        if !tabs.isEmpty { object["tabs"] = .object(tabs) }
        if !stacks.isEmpty {
            var out: [String: JSONValue] = [:]
            for stack in stacks {
                guard case .object(var body) = tails(stack.values, \.jsonValue) else { continue }
                body["in"] = .string(stack.presence.rawValue)
                out[stack.stack] = .object(body)
            }
            object["stacks"] = .object(out)
        }
        if !splits.isEmpty {
            var out: [String: JSONValue] = [:]
            for split in splits {
                var body: [String: JSONValue] = ["in": .string(split.presence.rawValue)]
                for column in split.columns {
                    body[column.column.rawValue] = change(column.selection) { .array($0.map(\.jsonValue)) }
                }
                if let visibility = split.visibility { body["visibility"] = change(visibility) { .string($0.rawValue) } }
                out[split.split] = .object(body)
            }
            object["splits"] = .object(out)
        }
        if let modals {
            object["modals"] = tails(modals) { .object(["modal": .string($0.modal), "style": .string($0.style.rawValue)]) }
        }
        if let sizeClass { object["sizeClass"] = change(sizeClass) { $0.map { .string($0.rawValue) } ?? .null } }
        return .object(object)
    }

    private func change<V>(_ c: DiffChange<V>, _ encode: (V) -> JSONValue) -> JSONValue {
        .object(["a": encode(c.a), "b": encode(c.b)])
    }

    private func tails<E>(_ t: DiffTails<E>, _ encode: (E) -> JSONValue) -> JSONValue {
        .object(["common": .array(t.common.map(encode)), "a": .array(t.a.map(encode)), "b": .array(t.b.map(encode))])
    }
}

extension StateDiff {
    /// `navlog diff A B --json`: ``jsonValue`` with which state each side
    /// is (`a`, `b`: its input as given, session, seq and time) and the point (`at`).
    public func jsonValue(a: (input: String, state: NavigationState), b: (input: String, state: NavigationState),
                          at spec: StateSpec) -> JSONValue {
        func side(_ path: String, _ state: NavigationState) -> JSONValue {
            .object(["input": .string(InputName.shown(path)), "session": .string(state.session),
                     "seq": .number(String(state.seq)), "t": state.t.map { .string($0.rfc3339) } ?? .null])
        }
        guard case .object(var object) = jsonValue else { return jsonValue }
        object["a"] = side(a.input, a.state)
        object["b"] = side(b.input, b.state)
        object["at"] = .string(spec.description)
        return .object(object)
    }
}
