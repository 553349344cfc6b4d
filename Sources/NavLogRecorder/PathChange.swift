import NavLogCore

/// The single event that turns one stack path into another, as
/// ``NavigationRecorder/stackChanged(_:to:scene:cause:meta:)`` records it.
///
/// The rule (`p` is the length of the common prefix of old and new):
/// - new equals old: no event;
/// - new extends old by one value (`p == old.count`, one more): `stack.push`;
/// - new is old cut short (`p == new.count`): `stack.popToRoot` when new is
///   empty, else `stack.pop` with `count = old.count - new.count`;
/// - anything else (several values appended, or a value replaced): one
///   `stack.set` with the whole new path.
///
/// Every change is therefore exactly one event, the fewest that replays to
/// the new path; among one-event choices push and pop are preferred to set,
/// because they say what happened.
public enum PathChange: Hashable, Sendable {
    case push(RouteValue)
    case pop(count: Int)
    case popToRoot
    case set([RouteValue])

    /// The change from `old` to `new`, or `nil` when they are equal.
    public init?(from old: [RouteValue], to new: [RouteValue]) {
        var prefix = 0
        let limit = min(old.count, new.count)
        while prefix < limit && old[prefix] == new[prefix] { prefix += 1 }
        if prefix == old.count && prefix == new.count { return nil }
        if prefix == old.count && new.count == old.count + 1 {
            self = .push(new[prefix])
        } else if prefix == new.count {
            self = new.isEmpty ? .popToRoot : .pop(count: old.count - new.count)
        } else {
            self = .set(new)
        }
    }

    /// The event kind that makes this change on `stack`.
    public func kind(stack: String) -> EventKind {
        switch self {
        case .push(let value): .stackPush(stack: stack, value: value)
        case .pop(let count): .stackPop(stack: stack, count: count)
        case .popToRoot: .stackPopToRoot(stack: stack)
        case .set(let path): .stackSet(stack: stack, path: path)
        }
    }
}
