import NavLogCore

/// A value for each session under way, in slots that ended sessions give
/// back: the last session asked for keeps its slot at hand, so the lines
/// of one session in a row look nothing up, and a line of another session
/// is one probe of a table keyed by the id's bytes, interleaved or not.
///
/// ```swift
/// var seqs = SessionSlots<Int>()
/// let slot = seqs.slot("s-1") { 0 }
/// var line = 1
/// seqs.update(slot, with: &line) { seq, _ in seq += 1 }
/// seqs.remove(at: slot)    // at the session's last line
/// ```
///
/// Ids are told apart by their exact UTF-8 bytes (``SessionID``). The
/// table is its own, not a `[SessionID: Int]`: nearly every line of an
/// interleaved input looks its session up, and the standard dictionary
/// (SipHash through `Hasher`) spent 5 % of such a line's instructions.
struct SessionSlots<Value> {
    /// Each slot's id and its hash (a free slot keeps its last ones).
    private var ids: [String] = []
    private var hashes: [UInt64] = []
    private var values: [Value?] = []
    private var free: [Int] = []
    /// Open addressing, linear probing: a slot number, or -1 for none.
    /// Its size is a power of two, at least twice the slots in use.
    private var table: [Int32] = Array(repeating: -1, count: 64)
    private var used = 0
    private var last = -1
    /// A seed of this table's own, so that no input's ids can be made to collide on purpose.
    private let seed = UInt64.random(in: .min ... .max)

    /// The slot of `session`, given `make()` when it has none.
    @inline(__always)
    mutating func slot(_ session: String, make: () -> Value) -> Int {
        if last >= 0, SessionID.same(ids[last], session) { return last }
        let hash = Self.hash(session, seed: seed)
        let mask = table.count - 1
        var at = Int(truncatingIfNeeded: hash) & mask
        while true {
            let found = Int(table[at])
            if found < 0 { break }
            if hashes[found] == hash, SessionID.same(ids[found], session) {
                last = found
                return found
            }
            at = (at + 1) & mask
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            ids[slot] = session
            hashes[slot] = hash
            values[slot] = make()
        } else {
            slot = values.count
            ids.append(session)
            hashes.append(hash)
            values.append(make())
        }
        table[at] = Int32(slot)
        used += 1
        if used * 2 > table.count { grow() }
        last = slot
        return slot
    }

    /// Runs `change` on the value in a slot that ``slot(_:make:)`` gave, in
    /// place, and on `other`, lent as a parameter (a closure's capture of it would be copied).
    @inline(__always)
    mutating func update<Other, E: Error>(_ slot: Int, with other: inout Other,
                                          _ change: (inout Value, inout Other) throws(E) -> Void) throws(E) {
        try change(&values[slot]!, &other)
    }

    /// Gives back a slot: its value is gone.
    mutating func remove(at slot: Int) {
        let mask = table.count - 1
        var at = Int(truncatingIfNeeded: hashes[slot]) & mask
        while Int(table[at]) != slot { at = (at + 1) & mask }
        // Backward-shift deletion: each entry after the hole that may move
        // into it does, so that no probe meets a gap before its entry.
        var hole = at
        var next = (hole + 1) & mask
        while table[next] >= 0 {
            let home = Int(truncatingIfNeeded: hashes[Int(table[next])]) & mask
            // The entry at `next` stays when its home is in (hole, next], cyclically.
            let stays = hole < next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !stays {
                table[hole] = table[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        table[hole] = -1
        used -= 1
        values[slot] = nil
        free.append(slot)
        if last == slot { last = -1 }
    }

    /// The values of the sessions that have slots, in slot order.
    var remaining: [Value] { values.compactMap { $0 } }

    /// Doubles the table, placing every slot in use again.
    private mutating func grow() {
        table = Array(repeating: -1, count: table.count * 2)
        let mask = table.count - 1
        for slot in values.indices where values[slot] != nil {
            var at = Int(truncatingIfNeeded: hashes[slot]) & mask
            while table[at] >= 0 { at = (at + 1) & mask }
            table[at] = Int32(slot)
        }
    }

    /// XXH64 of the id's UTF-8, with the table's seed.
    @inline(__always)
    private static func hash(_ id: String, seed: UInt64) -> UInt64 {
        var id = id
        return id.withUTF8 { XXHash64.hash(UnsafeRawBufferPointer($0), seed: seed) }
    }
}
