/// A replay step as a line of `navlog replay --json` (schemas/replay.schema.json).
extension ReplayStep {
    /// `{"anomalies":[…],"cause":16,"effects":[…],"scene":"main","screen":"…","seq":5,"t":"…","type":"stack.push"}`:
    /// `effects` are the phrases of the state changes and what the event
    /// says (not its anomalies, which are listed by kind in `anomalies`);
    /// `screen` is `null` when the scene was closed; `cause` only when the
    /// event has one.
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [
            "anomalies": .array(anomalies.map { .string($0.rawValue) }),
            "effects": .array(effects.filter { !$0.isAnomaly }.map { .string($0.description) }),
            "scene": .string(event.sceneID),
            "screen": screen.map { .string($0) } ?? .null,
            "seq": .number(String(event.seq)),
            "t": .string(event.t.rfc3339),
            "type": .string(event.type),
        ]
        if let cause = event.cause { object["cause"] = .number(String(cause)) }
        return .object(object)
    }
}
