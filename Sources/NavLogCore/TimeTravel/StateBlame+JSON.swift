/// `navlog blame --json`: the state at a point with the event behind each
/// value (docs/commands.md, "blame").
///
/// ```json
/// {"at":"end","scenes":{"main":{"modals":[],"screen":"Recipe/x","splits":{},
///   "stacks":{"home":[{"by":{"seq":3,"t":"…","type":"stack.push"},"value":{"id":"x","type":"Recipe"}}]}}},
///  "seq":9,"session":"s-1","t":"…"}
/// ```
extension StateBlame {
    /// The hidden tabs blamed, in tab order: those of a scene the user
    /// customized (elsewhere none, so that a scene of the older tab model
    /// is blamed as it always was).
    public static func blamedHiddenTabs(_ scene: SceneState) -> [String] {
        scene.tabs.customized ? scene.tabs.hiddenInOrder : []
    }

    /// Who hid a tab: `the user's customization`, `the app`, `state restoration`.
    public static func hider(_ origin: Origin?) -> String {
        switch origin?.event.kind {
        case .tabsCustomize?: "the user's customization"
        case .tabVisibility?: "the app"
        case .stateRestore?: "state restoration"
        default: "(unknown)"
        }
    }

    /// The blamed state at `spec` as one JSON object.
    public func jsonValue(at spec: StateSpec) -> JSONValue {
        func by(_ origin: Origin?) -> JSONValue {
            guard let origin else { return .null }
            let e = origin.event
            var object: [String: JSONValue] = ["seq": .number(String(e.seq)), "t": .string(e.t.rfc3339), "type": .string(e.type)]
            if let cause = e.cause { object["cause"] = .number(String(cause)) }
            if let url = origin.url, case .urlOpen(let link) = url.kind {
                object["url"] = .object(["seq": .number(String(url.seq)), "t": .string(url.t.rfc3339), "url": .string(link)])
            }
            return .object(object)
        }
        var scenes: [String: JSONValue] = [:]
        for (id, scene) in state.scenes {
            let origins = self.scenes[id] ?? SceneOrigins()
            var stacks: [String: JSONValue] = [:]
            for (stack, values) in scene.stacks {
                let o = origins.stacks[stack] ?? []
                stacks[stack] = .array(values.enumerated().map { i, v in
                    .object(["value": v.jsonValue, "by": by(i < o.count ? o[i] : nil)])
                })
            }
            var splits: [String: JSONValue] = [:]
            for (split, s) in scene.splits {
                var columns: [String: JSONValue] = [:]
                for column in SplitColumn.allCases where !s[column].isEmpty {
                    columns[column.rawValue] = .object(["selection": .array(s[column].map(\.jsonValue)),
                                                        "by": by(origins.splits[split]?[column])])
                }
                splits[split] = .object(columns)
            }
            let modals: [JSONValue] = scene.modals.enumerated().map { i, m in
                .object(["modal": .string(m.modal), "style": .string(m.style.rawValue),
                         "by": by(i < origins.modals.count ? origins.modals[i] : nil)])
            }
            var body: [String: JSONValue] = ["screen": .string(scene.screen), "stacks": .object(stacks),
                                             "splits": .object(splits), "modals": .array(modals)]
            if scene.tabs.customized {
                var hidden: [String: JSONValue] = [:]
                for tab in Self.blamedHiddenTabs(scene) {
                    let origin = origins.hiddenTabs[tab]
                    hidden[tab] = .object(["by": by(origin), "hider": .string(Self.hider(origin))])
                }
                body["hiddenTabs"] = .object(hidden)
            }
            scenes[id] = .object(body)
        }
        return .object(["session": .string(state.session), "seq": .number(String(state.seq)),
                        "t": state.t.map { .string($0.rfc3339) } ?? .null, "at": .string(spec.description),
                        "scenes": .object(scenes)])
    }
}
