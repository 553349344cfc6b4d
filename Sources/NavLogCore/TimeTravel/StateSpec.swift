/// A point in a session at which to take its state (docs/state.md, `--at SPEC`).
///
/// ```swift
/// let spec = try StateSpec(parsing: "2026-11-20T10:00:05Z")
/// let state = NavigationState(session: "s-1", folding: events, at: spec)
/// ```
public enum StateSpec: Hashable, Sendable {
    /// After every event with `seq ≤ N`; `0` is the empty state.
    case seq(Int)
    /// After exactly the events with `t ≤` the instant, in seq order. `t`
    /// need not increase, so an event after a later one may still apply.
    case instant(Timestamp)
    /// After every event.
    case end

    /// Parses `N` (a non-negative decimal integer), an RFC 3339 instant
    /// (strict, truncated to milliseconds like event times) or `end`.
    public init(parsing text: String) throws(StateSpecError) {
        if text == "end" {
            self = .end
        } else if !text.isEmpty, text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
            guard let n = Int(text) else { throw StateSpecError(text: text, reason: "seq out of range") }
            self = .seq(n)
        } else if let t = Timestamp(rfc3339: text) {
            self = .instant(t)
        } else if text.hasPrefix("-"), text.dropFirst().first?.isNumber == true {
            throw StateSpecError(text: text, reason: "a seq must be ≥ 0")
        } else if text.utf8.count >= 5, text.utf8.prefix(4).allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
            let problem = Timestamp.problem(rfc3339: text) ?? .outsideYears
            throw StateSpecError(text: text, reason: "not a strict RFC 3339 instant (\(problem))")
        } else {
            throw StateSpecError(
                text: text, reason: "expected a seq (an integer ≥ 0), an RFC 3339 instant, or \"end\"")
        }
    }

    /// Whether the state at this spec includes the event.
    @inlinable
    public func includes(_ event: Event) -> Bool {
        switch self {
        case .seq(let n): event.seq <= n
        case .instant(let instant): event.t <= instant
        case .end: true
        }
    }

    /// Whether folding events in seq order may stop at this event: neither
    /// it nor any later event is included. Only a seq spec ever stops early;
    /// an instant must see every event, since `t` need not increase.
    @inlinable
    public func isPast(_ event: Event) -> Bool {
        if case .seq(let n) = self { return event.seq > n }
        return false
    }
}

extension StateSpec: CustomStringConvertible {
    /// The spec as it is written: `42`, `2026-11-20T10:00:05.120Z` or `end`.
    public var description: String {
        switch self {
        case .seq(let n): String(n)
        case .instant(let t): t.rfc3339
        case .end: "end"
        }
    }
}

/// A `SPEC` that is not `N`, an RFC 3339 instant or `end`.
public struct StateSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text given.
    public var text: String
    /// What is wrong with it.
    public var reason: String

    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    public var description: String { "invalid state spec \"\(text.prefix(64))\": \(reason)" }
}

extension NavigationState {
    /// The state of a session at `spec`: its events, in seq order, folded from
    /// the empty state.
    ///
    /// - Complexity: O(n) in the events folded; a seq spec stops reading at
    ///   the first event past it.
    public init<Events: Sequence<Event>>(session: String, folding events: Events, at spec: StateSpec = .end) {
        self.init(session: session)
        apply(events, upTo: spec)
    }

    /// Applies, in order, the events that `spec` includes; stops at the first
    /// event past a seq spec. Returns how many events were applied.
    @discardableResult
    public mutating func apply<Events: Sequence<Event>>(_ events: Events, upTo spec: StateSpec = .end) -> Int {
        var applied = 0
        for event in events {
            if spec.isPast(event) { break }
            if spec.includes(event) {
                apply(event)
                applied += 1
            }
        }
        return applied
    }
}
