/// Folds a session until the visible screen of an event's scene matches a
/// glob: `navlog bisect LOG --until PATTERN` (docs/commands.md).
///
/// ```swift
/// var search = ScreenSearch(session: "s-1", pattern: GlobPattern("Recipe/*"), context: 5)
/// for event in events { if search.visit(event) { break } }
/// search.found        // (position, event, screen), or nil
/// ```
public struct ScreenSearch: Sendable {
    public private(set) var state: NavigationState
    public let pattern: GlobPattern
    /// How many events before the match are kept.
    public let context: Int
    /// Events visited so far.
    public private(set) var position = 0
    /// The last ``context`` events before the match, oldest first.
    public private(set) var recent: [Event] = []
    public private(set) var found: (position: Int, event: Event, screen: String)?

    public init(session: String, pattern: GlobPattern, context: Int) {
        state = NavigationState(session: session)
        self.pattern = pattern
        self.context = context
    }

    /// Applies one event; `true` once the screen matches.
    public mutating func visit(_ event: Event) -> Bool {
        state.apply(event)
        position += 1
        if let screen = state.scenes[event.sceneID]?.screen, pattern.matches(screen) {
            found = (position, event, screen)
            return true
        }
        if context > 0 {
            if recent.count == context { recent.removeFirst() }
            recent.append(event)
        }
        return false
    }

    /// The answer as one JSON object (schemas/bisect.schema.json, the
    /// `--until` form); `input` is the path as given.
    public func jsonValue(input: String, blocksDecompressed: Int?) -> JSONValue {
        var object: [String: JSONValue] = [
            "found": .bool(found != nil), "pattern": .string(pattern.description), "input": .string(InputName.shown(input)),
            "position": found.map { .number(String($0.position)) } ?? .null,
            "screen": found.map { .string($0.screen) } ?? .null,
            "event": found.map { EventSummary.json($0.event) } ?? .null,
            "leading": .array(found == nil ? [] : recent.map(EventSummary.json)),
        ]
        if let blocksDecompressed { object["blocksDecompressed"] = .number(String(blocksDecompressed)) }
        return .object(object)
    }
}
