/// A ``StateTimeline`` over events held in memory, with a checkpoint of the
/// state every `interval` events, so that any state is at most `interval - 1`
/// events away from one: stepping backwards costs what stepping forwards does.
///
/// ```swift
/// let timeline = CheckpointedTimeline(session: "s-1", events: events)
/// let state = timeline.state(at: 1_000)   // checkpoint 768 + 232 events
/// ```
public struct CheckpointedTimeline: StateTimeline, Sendable {
    public let session: String
    /// The events, in seq order.
    public let events: [Event]
    /// Events between checkpoints.
    public let interval: Int
    /// `checkpoints[k]` is the state at position `k * interval`.
    private let checkpoints: [NavigationState]

    /// Folds the events once, keeping the state every `interval` (≥ 1) events.
    ///
    /// - Complexity: O(n) events applied; memory of about n / interval states.
    public init(session: String, events: [Event], interval: Int = 256) {
        precondition(interval >= 1, "a checkpoint interval is at least 1")
        self.session = session
        self.events = events
        self.interval = interval
        var projector = NavigationProjector(session: session)
        var checkpoints = [projector.state]
        checkpoints.reserveCapacity(events.count / interval + 1)
        for (index, event) in events.enumerated() {
            projector.apply(event)
            if (index + 1) % interval == 0 { checkpoints.append(projector.state) }
        }
        self.checkpoints = checkpoints
    }

    public var count: Int { events.count }

    /// How many checkpoints are held, the empty state included.
    public var checkpointCount: Int { checkpoints.count }

    public func event(at position: Int) -> Event { events[position - 1] }

    /// - Complexity: at most `interval - 1` events applied to a copy of the
    ///   nearest checkpoint at or before `position`.
    public func state(at position: Int) -> NavigationState {
        precondition(position >= 0 && position <= count, "position \(position) outside 0...\(count)")
        let k = position / interval
        var projector = NavigationProjector(state: checkpoints[k])
        var p = k * interval
        while p < position {
            projector.apply(events[p])
            p += 1
        }
        return projector.state
    }
}
