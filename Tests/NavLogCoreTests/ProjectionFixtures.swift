import NavLogCore

/// Builders for projection tests: events of session `s-1`, seq 1, 2, 3, …,
/// one second apart from 2026-11-20T10:00:00Z.
enum Fixture {
    static let session = "s-1"
    static let t0 = Timestamp(milliseconds: 1_795_168_800_000)  // 2026-11-20T10:00:00.000Z

    /// The time `seconds` after ``t0``.
    static func t(_ seconds: Int64) -> Timestamp { Timestamp(milliseconds: t0.milliseconds + seconds * 1000) }

    /// One event; seq `seq`, `seq` seconds after ``t0``.
    static func event(_ seq: Int, _ kind: EventKind, scene: String? = nil, cause: Int? = nil) -> Event {
        Event(session: session, seq: seq, t: t(Int64(seq)), scene: scene, kind: kind, cause: cause)
    }

    /// Events with seq 1…n, all in `scene`.
    static func events(_ kinds: [EventKind], scene: String? = nil) -> [Event] {
        kinds.enumerated().map { event($0.offset + 1, $0.element, scene: scene) }
    }

    /// The state after the kinds, applied in order to scene `scene`.
    static func state(_ kinds: [EventKind], scene: String? = nil) -> NavigationState {
        NavigationState(session: session, folding: events(kinds, scene: scene))
    }

    /// The `main` scene after the kinds (it always exists after them).
    static func main(_ kinds: [EventKind]) -> SceneState {
        state(kinds).scenes["main"]!
    }
}

/// A route value.
func R(_ type: String, _ id: String? = nil, data: JSONValue? = nil) -> RouteValue {
    RouteValue(type: type, id: id, data: data)
}
