/// Navigation state as the JSON of docs/state.md, and back.
extension NavigationState {
    /// The state object of docs/state.md:
    ///
    /// ```json
    /// {"anomalies":{"pop-underflow":1},"scenes":{"main":{…}},"seq":42,
    ///  "session":"s-1","t":"2026-11-20T10:00:05.120Z"}
    /// ```
    ///
    /// With no event applied: `{"anomalies":{},"scenes":{},"seq":0,"session":…,"t":null}`.
    /// ``ended`` is not part of it; see ``checkpointJSON``.
    public var jsonValue: JSONValue {
        var anomalyObject: [String: JSONValue] = [:]
        for (kind, count) in anomalies { anomalyObject[kind.rawValue] = .number(String(count)) }
        var sceneObject: [String: JSONValue] = [:]
        sceneObject.reserveCapacity(scenes.count)
        for (id, scene) in scenes { sceneObject[id] = scene.jsonValue }
        return .object([
            "anomalies": .object(anomalyObject),
            "scenes": .object(sceneObject),
            "seq": .number(String(seq)),
            "session": .string(session),
            "t": t.map { .string($0.rfc3339) } ?? .null,
        ])
    }

    /// ``jsonValue`` as canonical text: keys sorted at every depth, no whitespace.
    public var jsonText: String { jsonValue.canonicalText }

    /// The full state for storage checkpoints: ``jsonValue`` plus
    /// `"ended":true` when the session has ended (absent otherwise), so that
    /// ``init(json:)`` restores the state exactly.
    public var checkpointJSON: JSONValue {
        guard ended, case .object(var object) = jsonValue else { return jsonValue }
        object["ended"] = .bool(true)
        return .object(object)
    }

    /// Decodes a state from its §2 JSON or its ``checkpointJSON``; the result
    /// is equal (`==`) to the state that was encoded.
    ///
    /// `session` is required; `anomalies`, `scenes` (absent: none), `seq`
    /// (absent: 0), `t` (absent or `null`: none) and `ended` (absent:
    /// `false`) are optional. Scene objects are read like a `state.restore`
    /// (``SceneState/decodeRestore(_:)``); `screen` is derived and ignored.
    /// Errors name the field by its path, e.g. `scenes.main.stacks.home[0].type`.
    public init(json: JSONValue) throws(EventParseError) {
        let object = try StateDecoding.object(json) { "state" }
        guard let sessionValue = object["session"], sessionValue != .null else {
            throw .missingField(field: "session")
        }
        self.init(session: try StateDecoding.string(sessionValue) { "session" })
        if let value = StateDecoding.present(object["seq"]) {
            let seq = try StateDecoding.integer(value) { "seq" }
            guard seq >= 0 else { throw .invalidValue(field: "seq", reason: "must be ≥ 0, found \(seq)") }
            self.seq = seq
        }
        if let value = StateDecoding.present(object["t"]) {
            let text = try StateDecoding.string(value) { "t" }
            guard let t = Timestamp(rfc3339: text) else {
                throw .invalidValue(field: "t", reason: Timestamp.refusal(rfc3339: text))
            }
            self.t = t
        }
        if let value = StateDecoding.present(object["ended"]) {
            guard case .bool(let ended) = value else {
                throw .wrongType(field: "ended", expected: "a boolean", found: value.typeName)
            }
            self.ended = ended
        }
        if let value = StateDecoding.present(object["anomalies"]) {
            for (name, countValue) in try StateDecoding.object(value, { "anomalies" }) {
                guard let kind = AnomalyKind(rawValue: name) else {
                    let allowed = AnomalyKind.allCases.map(\.rawValue).joined(separator: ", ")
                    throw .invalidValue(field: "anomalies", reason: "\"\(name.prefix(64))\" is not one of \(allowed)")
                }
                let count = try StateDecoding.integer(countValue) { "anomalies.\(name)" }
                guard count >= 1 else {
                    throw .invalidValue(field: "anomalies.\(name)", reason: "must be ≥ 1, found \(count)")
                }
                anomalies[kind] = count
            }
        }
        if let value = StateDecoding.present(object["scenes"]) {
            let sceneObjects = try StateDecoding.object(value) { "scenes" }
            scenes.reserveCapacity(sceneObjects.count)
            for (id, sceneValue) in sceneObjects {
                let sceneObject = try StateDecoding.object(sceneValue) { "scenes.\(id)" }
                scenes[id] = try SceneState.decode(sceneObject, canonical: false) { "scenes.\(id)" }.state
            }
        }
    }
}
