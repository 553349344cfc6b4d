/// Steps two sessions forward together, one event each, and finds the first
/// position after which their states differ (docs/state.md, "Equality and divergence"):
/// position k compares the states after the first k events of each; when
/// one session ends first with every shared position equal, the divergence
/// is at the shorter length + 1.
///
/// ```swift
/// var search = DivergenceSearch(session: ("a", "b"))
/// for (x, y) in zip(eventsA, eventsB) {
///     if search.step(x, y) { break }       // search.position is the answer
/// }
/// ```
///
/// It starts from two states whose scenes are equal (the empty states, or
/// two states known equal at some position) and keeps the last few events
/// of each side for showing what led up to a divergence.
public struct DivergenceSearch: Sendable {
    /// The states after ``position`` events of each side.
    public var stateA: NavigationState { projectorA.state }
    public var stateB: NavigationState { projectorB.state }
    private var projectorA: NavigationProjector
    private var projectorB: NavigationProjector
    /// Events applied to each side so far.
    public private(set) var position: Int
    /// Whether the states differ after ``position`` (the search is over).
    public private(set) var diverged = false
    /// The events at ``position`` once diverged (`nil` for a side that had ended).
    public private(set) var eventA: Event?
    public private(set) var eventB: Event?
    /// How many earlier events each side keeps.
    public let context: Int
    private var recentA: [Event] = []
    private var recentB: [Event] = []

    /// Starts at `position` from two states with equal scenes.
    public init(stateA: NavigationState, stateB: NavigationState, position: Int = 0, context: Int = 5) {
        self.projectorA = NavigationProjector(state: stateA)
        self.projectorB = NavigationProjector(state: stateB)
        self.position = position
        self.context = max(context, 0)
    }

    /// Starts from the empty states of two sessions.
    public init(sessions: (String, String), context: Int = 5) {
        self.init(stateA: NavigationState(session: sessions.0), stateB: NavigationState(session: sessions.1), context: context)
    }

    /// The events before the divergence, oldest first (at most ``context``).
    public var leadingA: [Event] { recentA }
    public var leadingB: [Event] { recentB }

    /// Applies the next event of each side (`nil`: that side has ended) and
    /// returns whether the states now differ. Two `nil`s change nothing and
    /// return `false`: the sessions never diverged.
    ///
    /// - Complexity: O(size of the two events' scenes): before the step the
    ///   states are equal, and an event changes only its own scene.
    @discardableResult
    public mutating func step(_ a: Event?, _ b: Event?) -> Bool {
        step(a, b, lengthRule: true)
    }

    /// `lengthRule`: a missing event is a divergence (position alignment);
    /// without it, a side without an event at this point keeps its state
    /// (seq alignment, inside both logs' ranges).
    private mutating func step(_ a: Event?, _ b: Event?, lengthRule: Bool) -> Bool {
        precondition(!diverged, "the search is over")
        guard a != nil || b != nil else { return false }
        position += 1
        if let a { projectorA.apply(a) }
        if let b { projectorB.apply(b) }
        let differ: Bool
        if (a == nil || b == nil) && lengthRule {
            differ = true   // one side ended: the length rule
        } else {
            let x = (a ?? b)!.sceneID, y = (b ?? a)!.sceneID
            differ = projectorA.state.scenes[x] != projectorB.state.scenes[x]
                || projectorA.state.scenes[y] != projectorB.state.scenes[y]
        }
        if differ {
            diverged = true
            eventA = a
            eventB = b
        } else {
            remember(a, b)
        }
        return differ
    }

    /// Applies events known to be the same on both sides (no comparison),
    /// keeping them as context.
    public mutating func advanceSame(_ a: Event, _ b: Event) {
        position += 1
        projectorA.apply(a)
        projectorB.apply(b)
        remember(a, b)
    }

    /// Steps both sides to their divergence or their ends: the first `same`
    /// pairs are known to be equal and applied without comparing (kept as
    /// context), the rest compared pair by pair. `next` gives each side's
    /// next event (`nil` once that side has ended).
    public mutating func run<E: Error>(same: Int = 0, _ next: () throws(E) -> (Event?, Event?)) throws(E) {
        var same = same
        while true {
            let (x, y) = try next()
            if same > 0, let x, let y {
                same -= 1
                advanceSame(x, y)
                continue
            }
            if (x == nil && y == nil) || step(x, y) { return }
        }
    }

    private mutating func remember(_ a: Event?, _ b: Event?) {
        guard context > 0 else { return }
        if let a {
            if recentA.count == context { recentA.removeFirst() }
            recentA.append(a)
        }
        if let b {
            if recentB.count == context { recentB.removeFirst() }
            recentB.append(b)
        }
    }

    /// The first position at which two event sequences' states differ, or
    /// `nil` when they never do — by folding both from the start.
    ///
    /// - Complexity: O(n) events folded.
    public static func firstDivergence<A: Sequence<Event>, B: Sequence<Event>>(
        _ a: A, _ b: B, sessions: (String, String) = ("", ""), context: Int = 5
    ) -> DivergenceSearch {
        var search = DivergenceSearch(sessions: sessions, context: context)
        var ia = a.makeIterator(), ib = b.makeIterator()
        search.run { (ia.next(), ib.next()) }
        return search
    }

    /// The first seq after which two sessions' states differ, aligning by
    /// seq (`navlog bisect --align seq`): point s compares the states after
    /// every event with seq ≤ s, for every seq of either session in order. A
    /// seq only one side has, while both still have events beyond it,
    /// changes only that side; one past the end of the shorter session is a
    /// divergence (as the length rule of positions). ``position`` counts the
    /// points compared; the answer is the seq of ``eventA`` or ``eventB``.
    ///
    /// Both sequences must be in increasing seq order (as logs and accepted
    /// input are). - Complexity: O(n) events folded.
    public static func firstSeqDivergence(
        _ a: [Event], _ b: [Event], sessions: (String, String) = ("", ""), context: Int = 5
    ) -> DivergenceSearch {
        var search = DivergenceSearch(sessions: sessions, context: context)
        var i = 0, j = 0
        let lastA = a.last?.seq ?? 0, lastB = b.last?.seq ?? 0
        while i < a.count || j < b.count {
            let sa = i < a.count ? a[i].seq : Int.max, sb = j < b.count ? b[j].seq : Int.max
            let s = min(sa, sb)
            let x = sa == s ? a[i] : nil, y = sb == s ? b[j] : nil
            if x != nil { i += 1 }
            if y != nil { j += 1 }
            // Past the end of one side: the length rule.
            let beyond = s > min(lastA, lastB)
            if search.step(x, y, lengthRule: beyond) { return search }
        }
        return search
    }
}
