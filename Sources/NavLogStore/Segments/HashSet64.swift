/// A set of 64-bit hashes that are spread already (XXH64 of session ids):
/// they index an open-addressing table as they are, probed linearly, at
/// most half full; Swift's `Set` would hash each one again.
struct HashSet64 {
    /// A power of two; 0 marks an empty slot (the hash 0 is kept apart).
    private var slots = [UInt64](repeating: 0, count: 1024)
    private var hasZero = false
    private(set) var count = 0

    func contains(_ hash: UInt64) -> Bool {
        guard hash != 0 else { return hasZero }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if slots[slot] == hash { return true }
            slot = (slot + 1) & mask
        }
        return false
    }

    mutating func insert(_ hash: UInt64) {
        guard hash != 0 else {
            if !hasZero { hasZero = true; count += 1 }
            return
        }
        if (count + 1) * 2 > slots.count {
            let held = slots
            slots = [UInt64](repeating: 0, count: slots.count * 2)
            for other in held where other != 0 { place(other) }
        }
        if place(hash) { count += 1 }
    }

    mutating func removeAll() {
        self = HashSet64()
    }

    /// Puts `hash` (not 0) in its slot; `false` when it was there.
    @discardableResult
    private mutating func place(_ hash: UInt64) -> Bool {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            if slots[slot] == hash { return false }
            slot = (slot + 1) & mask
        }
        slots[slot] = hash
        return true
    }
}
