/// Screen names built before, found again without building them: a small
/// direct-mapped table of `type/id` names keyed by the two strings' stored
/// bits. The parser hands out the same string for the same name
/// (``StringInterner``), so a session's screens hit again and again and
/// `type/id` is joined once, not at every screen view.
///
/// Equal bits mean equal strings (the same small-string bytes, or the same
/// storage object, which the table keeps alive, so its address is not
/// reused while it is here); different bits only mean a miss. Used by one
/// thread at a time; share one among the sessions a thread follows.
package final class ScreenNameCache {
    private struct Slot {
        var type: String
        var id: String
        var name: String
    }

    private var slots: [Slot?]
    private let mask: Int
    /// Whether a `String` is the two words this table compares.
    private static let comparable = MemoryLayout<String>.size == 16

    /// A table of `slots` entries (rounded up to a power of two).
    package init(slots: Int = 512) {
        var size = 16
        while size < slots { size <<= 1 }
        self.slots = Array(repeating: nil, count: size)
        mask = size - 1
    }

    /// The name of a visible screen.
    func name(of key: ScreenKey) -> String {
        guard case .route(let type, let id?) = key, Self.comparable else { return key.name }
        // Unsafe: a String's two words, read without hashing its bytes; equal bits mean equal strings (above).
        let t = unsafeBitCast(type, to: (UInt64, UInt64).self)
        let i = unsafeBitCast(id, to: (UInt64, UInt64).self)
        var h = (t.0 ^ (t.1 &* 0x9E37_79B9_7F4A_7C15)) &+ (i.0 ^ (i.1 &* 0xC2B2_AE3D_27D4_EB4F)) &* 0x1656_67B1_9E37_79F9
        h ^= h >> 29
        let index = Int(truncatingIfNeeded: h) & mask
        if let slot = slots[index],
           unsafeBitCast(slot.type, to: (UInt64, UInt64).self) == t,
           unsafeBitCast(slot.id, to: (UInt64, UInt64).self) == i {
            return slot.name
        }
        let name = key.name
        slots[index] = Slot(type: type, id: id, name: name)
        return name
    }
}
