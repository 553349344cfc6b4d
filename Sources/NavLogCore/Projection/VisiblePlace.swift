/// Where a scene's visible screen is (``SceneState/visiblePlace``): what
/// the browser viewer highlights.
public enum VisiblePlace: Hashable, Sendable {
    /// No modal, tab, split or stack `main` value: the scene's root.
    case root
    /// The top value of this stack.
    case stack(String)
    /// The first value of this column (`sidebar`, `content` or `detail`) of this split.
    case column(split: String, column: String)
    /// This modal, with no value in its stack.
    case modal(String)
    /// This tab, with no value in its stack.
    case tab(String)
    /// This split, with nothing in its stack or columns.
    case split(String)

    /// As JSON: `{"place":"stack","name":…}`, `{"column":…,"name":…,"place":"column"}`, `{"place":"root"}`, …
    public var jsonValue: JSONValue {
        switch self {
        case .root: .object(["place": .string("root")])
        case .stack(let name): .object(["place": .string("stack"), "name": .string(name)])
        case .column(let split, let column): .object(["place": .string("column"), "name": .string(split), "column": .string(column)])
        case .modal(let name): .object(["place": .string("modal"), "name": .string(name)])
        case .tab(let name): .object(["place": .string("tab"), "name": .string(name)])
        case .split(let name): .object(["place": .string("split"), "name": .string(name)])
        }
    }
}

extension NavigationState {
    /// Where each scene's visible screen is, as `GET /v1/sessions/{id}/visible`
    /// answers: `{"scenes":{ID:PLACE,…},"seq":N,"session":ID}`.
    public var visiblePlacesJSON: JSONValue {
        var scenes: [String: JSONValue] = [:]
        for (id, scene) in self.scenes { scenes[id] = scene.visiblePlace.jsonValue }
        return .object(["scenes": .object(scenes), "seq": .number(String(seq)), "session": .string(session)])
    }
}
