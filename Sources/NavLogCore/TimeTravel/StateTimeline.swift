/// The states of one session after each prefix of its events, by position:
/// what `navlog replay --interactive` steps through.
///
/// A position is a count of events: `0` is the empty state, `count` the
/// state after every event; event `p` (1-based) leads from position `p - 1`
/// to `p`. Conforming types decide where events and states come from (an
/// in-memory array with checkpoints, ``CheckpointedTimeline``; a log with
/// its own checkpoints); the stepping, seeking and searching below are
/// built on the three requirements.
public protocol StateTimeline {
    /// The session id.
    var session: String { get }
    /// How many events.
    var count: Int { get }
    /// The event at `position`, in `1...count`.
    func event(at position: Int) -> Event
    /// The state after the first `position` events, `position` in `0...count`.
    /// Should cost about the same going backwards as forwards.
    func state(at position: Int) -> NavigationState
}

extension StateTimeline {
    /// The event at `position` (`1...count`) with what it changed and the state after it.
    public func step(at position: Int) -> ReplayStep {
        var state = state(at: position - 1)
        let event = event(at: position)
        let effects = state.applyDescribing(event)
        return ReplayStep(position: position, event: event, effects: effects, state: state)
    }

    /// The steps at the positions in `range` (within `1...count`), folded
    /// forward from the state before the first.
    ///
    /// - Complexity: one ``state(at:)`` and `range.count` events applied.
    public func steps(_ range: ClosedRange<Int>) -> [ReplayStep] {
        var state = state(at: range.lowerBound - 1)
        return range.map { position in
            let event = event(at: position)
            let effects = state.applyDescribing(event)
            return ReplayStep(position: position, event: event, effects: effects, state: state)
        }
    }

    /// The position of the last event with `seq ≤ n` (`0` when there is
    /// none): where `navlog state --at n` stands.
    ///
    /// - Complexity: O(log count) events read; seqs strictly increase.
    public func position(ofSeq n: Int) -> Int {
        var low = 0
        var high = count
        while low < high {  // invariant: events 1...low have seq ≤ n, events after high have seq > n
            let middle = (low + high + 1) / 2
            if event(at: middle).seq <= n { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// The position of the last event whose time is at or before `instant`
    /// (`0` when there is none). Times need not increase, so an earlier
    /// event may still be later than `instant`.
    ///
    /// - Complexity: O(count) events read at worst, from the end.
    public func position(atOrBefore instant: Timestamp) -> Int {
        var p = count
        while p > 0, event(at: p).t > instant { p -= 1 }
        return p
    }

    /// The first position after `position` whose event, or the screen it
    /// led to, matches `pattern` (``Event/matches(_:screen:)``); `nil` when none does.
    ///
    /// - Complexity: O(distance) events applied forward from `position`.
    public func position(after position: Int, matching pattern: GlobPattern) -> Int? {
        guard position < count else { return nil }
        var projector = NavigationProjector(state: state(at: position))
        for p in (position + 1)...count {
            let event = event(at: p)
            projector.apply(event)
            if event.matches(pattern, screen: projector.state.scenes[event.sceneID]?.screen) { return p }
        }
        return nil
    }
}
