/// Which events `navlog cat` prints: seq in `fromSeq...toSeq` and, when
/// `types` is not empty, a type among them. Written once for a log, a
/// stored session and a followed one.
///
/// ```swift
/// let filter = EventFilter(fromSeq: 3, toSeq: 9, types: ["stack.push"])
/// filter.includes(event)
/// ```
public struct EventFilter: Hashable, Sendable {
    public var fromSeq: Int?
    public var toSeq: Int?
    public var types: Set<String>

    public init(fromSeq: Int? = nil, toSeq: Int? = nil, types: Set<String> = []) {
        self.fromSeq = fromSeq
        self.toSeq = toSeq
        self.types = types
    }

    /// Whether it lets every event through.
    public var isEmpty: Bool { fromSeq == nil && toSeq == nil && types.isEmpty }

    /// Whether `type` is let through.
    public func includes(type: String) -> Bool { types.isEmpty || types.contains(type) }

    /// Whether `event` is let through.
    public func includes(_ event: Event) -> Bool {
        event.seq >= fromSeq ?? 1 && event.seq <= toSeq ?? .max && includes(type: event.type)
    }
}
