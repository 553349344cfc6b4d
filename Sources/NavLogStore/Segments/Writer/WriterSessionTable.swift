#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer's sessions in memory, found by the bytes of their id as the
/// line holds them, so looking a line's session up makes no `String` and
/// no array: an open-addressing table indexed by the id's XXH64 itself (it
/// is hashed already), probing linearly, at most half full.
struct WriterSessionTable {
    /// A power of two.
    private var slots = [WriterSession?](repeating: nil, count: 1024)
    private(set) var count = 0

    /// The session whose id is `id` (with XXH64 `hash`), if held.
    func find(_ id: UnsafeRawBufferPointer, hash: UInt64) -> WriterSession? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while let session = slots[slot] {
            // memcmp: both buffers hold id.count bytes (an empty one may have no address, so it is not called).
            if session.key.hash == hash, session.key.id.count == id.count,
               id.isEmpty || session.key.id.withUnsafeBytes({ memcmp($0.baseAddress!, id.baseAddress!, id.count) == 0 }) {
                return session
            }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Adds a session not held.
    mutating func insert(_ session: WriterSession) {
        if (count + 1) * 2 > slots.count {
            let held = slots
            slots = [WriterSession?](repeating: nil, count: slots.count * 2)
            for case let other? in held { place(other) }
        }
        place(session)
        count += 1
    }

    /// Calls `body` with every session held.
    func forEach(_ body: (WriterSession) -> Void) {
        for case let session? in slots { body(session) }
    }

    /// Forgets every session but `kept`.
    mutating func keepOnly(_ kept: [WriterSession]) {
        for slot in slots.indices { slots[slot] = nil }
        count = 0
        for session in kept { insert(session) }
    }

    private mutating func place(_ session: WriterSession) {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: session.key.hash) & mask
        while slots[slot] != nil { slot = (slot + 1) & mask }
        slots[slot] = session
    }
}
