#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value for each of very many sessions (every session of an input, or
/// of a store), found by the exact bytes of the id, in about 24 bytes plus
/// the value and the id's bytes a session: the ids lie back to back in one
/// buffer, the entries in one array, and an open-addressing table of entry
/// numbers indexed by the id's XXH64 (which the caller has already) finds
/// them. A `Dictionary<SessionKey, Value>` costs an array object a key and
/// keeps its buckets a quarter empty; at a million sessions that is several
/// times more.
///
/// ```swift
/// var table = SessionValueTable<Int>()
/// table.set(7, for: id, hash: XXHash64.hash(id))
/// table.removeValue(for: id, hash: XXHash64.hash(id))   // 7
/// ```
///
/// - Complexity: finding, setting and removing are O(1) on average (the
///   table is at most half full; linear probing).
struct SessionValueTable<Value> {
    private struct Entry {
        var hash: UInt64
        /// Where the id's bytes are in ``ids``: start in the high 40 bits, length in the low 24.
        var place: UInt64
        var value: Value
    }

    private var entries: [Entry] = []
    /// Entry number + 1 by slot, 0 for an empty slot; a power of two, at most half full.
    private var slots = [UInt32](repeating: 0, count: 64)
    /// The ids' bytes, back to back (those of removed entries until the next compaction).
    private var ids: [UInt8] = []
    /// Bytes of ``ids`` no entry uses.
    private var unused = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    /// The value for session id `id` (whose XXH64 is `hash`), if any.
    func value(for id: UnsafeRawBufferPointer, hash: UInt64) -> Value? {
        guard let slot = slot(of: id, hash: hash) else { return nil }
        return entries[Int(slots[slot]) - 1].value
    }

    /// Sets the value for session id `id` (whose XXH64 is `hash`).
    mutating func set(_ value: Value, for id: UnsafeRawBufferPointer, hash: UInt64) {
        if let slot = slot(of: id, hash: hash) {
            entries[Int(slots[slot]) - 1].value = value
            return
        }
        precondition(id.count < 1 << 24 && entries.count < Int(UInt32.max), "a session id or a table too large for SessionValueTable")
        if (entries.count + 1) * 2 > slots.count { rebuildSlots(count: slots.count * 2) }
        let start = UInt64(ids.count)
        ids.append(contentsOf: id)
        entries.append(Entry(hash: hash, place: start << 24 | UInt64(id.count), value: value))
        place(entries.count - 1)
    }

    /// Removes the value for session id `id` (whose XXH64 is `hash`) and returns it, if any.
    @discardableResult
    mutating func removeValue(for id: UnsafeRawBufferPointer, hash: UInt64) -> Value? {
        guard let slot = slot(of: id, hash: hash) else { return nil }
        let number = Int(slots[slot]) - 1
        let removed = entries[number]
        unused += Int(removed.place & 0xFF_FFFF)
        clear(slot)
        // The last entry takes the removed one's number.
        let last = entries.count - 1
        if number != last {
            let moved = entries[last]
            var at = Int(truncatingIfNeeded: moved.hash) & (slots.count - 1)
            while Int(slots[at]) - 1 != last { at = (at + 1) & (slots.count - 1) }
            slots[at] = UInt32(number + 1)
            entries[number] = moved
        }
        entries.removeLast()
        if unused >= 1 << 12 && unused > ids.count / 2 { compactIDs() }
        return removed.value
    }

    /// Removes every value and gives the memory back.
    mutating func removeAll() {
        self = SessionValueTable()
    }

    /// The slot of the entry for `id`, if any.
    private func slot(of id: UnsafeRawBufferPointer, hash: UInt64) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = entries[Int(slots[slot]) - 1]
            if entry.hash == hash && Int(entry.place & 0xFF_FFFF) == id.count && matches(entry, id) { return slot }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private func matches(_ entry: Entry, _ id: UnsafeRawBufferPointer) -> Bool {
        // memcmp: both hold id.count bytes (an empty id has no address, so it is not called).
        id.isEmpty || ids.withUnsafeBytes { memcmp($0.baseAddress! + Int(entry.place >> 24), id.baseAddress!, id.count) == 0 }
    }

    /// Puts entry `number` in the first free slot from its hash's.
    private mutating func place(_ number: Int) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: entries[number].hash) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = UInt32(number + 1)
    }

    /// Empties `slot`, moving back the entries after it that probing would no longer reach.
    private mutating func clear(_ slot: Int) {
        let mask = slots.count - 1
        var hole = slot, next = (slot + 1) & mask
        while slots[next] != 0 {
            let home = Int(truncatingIfNeeded: entries[Int(slots[next]) - 1].hash) & mask
            // The entry at `next` may fill the hole when its home is not in (hole, next], cyclically.
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
    }

    private mutating func rebuildSlots(count: Int) {
        slots = [UInt32](repeating: 0, count: count)
        for number in entries.indices { place(number) }
    }

    /// Writes the ids still used back to back.
    private mutating func compactIDs() {
        var kept: [UInt8] = []
        kept.reserveCapacity(ids.count - unused)
        for number in entries.indices {
            let start = Int(entries[number].place >> 24), length = Int(entries[number].place & 0xFF_FFFF)
            entries[number].place = UInt64(kept.count) << 24 | UInt64(length)
            kept.append(contentsOf: ids[start..<(start + length)])
        }
        ids = kept
        unused = 0
    }
}

extension SessionValueTable {
    /// Sets the value for session `key`.
    mutating func set(_ value: Value, for key: SessionKey) {
        key.id.withUnsafeBytes { set(value, for: $0, hash: key.hash) }
    }

    /// Removes the value for session `key` and returns it, if any.
    @discardableResult
    mutating func removeValue(for key: SessionKey) -> Value? {
        key.id.withUnsafeBytes { removeValue(for: $0, hash: key.hash) }
    }

    /// The value for session `key`, if any.
    func value(for key: SessionKey) -> Value? {
        key.id.withUnsafeBytes { value(for: $0, hash: key.hash) }
    }
}
