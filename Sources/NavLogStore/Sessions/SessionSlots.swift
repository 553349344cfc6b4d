import NavLogCore

/// A value for each session under way, in slots that ended sessions give
/// back: the last session asked for keeps its slot at hand, so the lines
/// of one session in a row look nothing up, and a line of another session
/// is one lookup, interleaved or not.
///
/// ```swift
/// var seqs = SessionSlots<Int>()
/// let slot = seqs.slot("s-1") { 0 }
/// seqs[slot] += 1
/// seqs.remove("s-1", at: slot)    // at the session's last line
/// ```
struct SessionSlots<Value> {
    private var index: [SessionID: Int] = [:]
    private var values: [Value?] = []
    private var free: [Int] = []
    private var last: (id: String, slot: Int)?

    /// The slot of `session`, given `make()` when it has none.
    @inline(__always)
    mutating func slot(_ session: String, make: () -> Value) -> Int {
        if let last, SessionID.same(last.id, session) { return last.slot }
        let slot: Int
        if let found = index[SessionID(session)] {
            slot = found
        } else if let reused = free.popLast() {
            slot = reused
            values[slot] = make()
            index[SessionID(session)] = slot
        } else {
            slot = values.count
            values.append(make())
            index[SessionID(session)] = slot
        }
        last = (session, slot)
        return slot
    }

    /// The value in a slot that ``slot(_:make:)`` gave.
    subscript(slot: Int) -> Value {
        get { values[slot]! }
        _modify { yield &values[slot]! }
    }

    /// Gives back `session`'s slot, `slot`: its value is gone.
    mutating func remove(_ session: String, at slot: Int) {
        index[SessionID(session)] = nil
        values[slot] = nil
        free.append(slot)
        if last?.slot == slot { last = nil }
    }

    /// The values of the sessions that have slots, in slot order.
    var remaining: [Value] { values.compactMap { $0 } }
}
