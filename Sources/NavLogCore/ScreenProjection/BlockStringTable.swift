// ScreenProjection/: The screen projection's block codec (schemas/screen-projection.md): its bytes, pure.

/// One of a projection block's string tables (names, scenes, `session.start`
/// templates) as ``ScreenProjectionBlock/encode(commit:indexOffset:runs:)``
/// fills it: each distinct string once, numbered in order of first use.
///
/// Most lookups are of a string seen a moment ago, and the same name is the
/// same `String` (the parser and the screen-name cache hand out one per
/// name, the writer one template per `session.start` shape): a small
/// direct-mapped table keyed by the string's two stored words finds it
/// without hashing its bytes, as ``ScreenNameCache`` does. Equal words mean
/// equal strings (the same small-string bytes, or the same storage object,
/// which the slot keeps alive); anything else goes to the dictionary, which
/// decides by value, so the numbering is the dictionary's alone.
struct BlockStringTable {
    private(set) var strings: [String] = []
    private var numbers: [String: Int] = [:]
    private var slots: [(string: String, number: Int)?]
    private static let slotCount = 256
    /// Whether a `String` is the two words this table compares.
    private static let comparable = MemoryLayout<String>.size == 16

    init() {
        slots = Array(repeating: nil, count: Self.comparable ? Self.slotCount : 0)
    }

    /// The number of `s`, given it the next one the first time.
    @inline(__always)
    mutating func number(_ s: String) -> Int {
        guard Self.comparable else { return byValue(s) }
        // Unsafe: a String's two words, read without hashing its bytes (equal words, equal strings: above).
        let w = unsafeBitCast(s, to: (UInt64, UInt64).self)
        var h = (w.0 ^ (w.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0x1656_67B1_9E37_79F9
        h ^= h >> 29
        let slot = Int(truncatingIfNeeded: h) & (Self.slotCount - 1)
        if let known = slots[slot], unsafeBitCast(known.string, to: (UInt64, UInt64).self) == w { return known.number }
        let number = byValue(s)
        slots[slot] = (s, number)
        return number
    }

    private mutating func byValue(_ s: String) -> Int {
        if let number = numbers[s] { return number }
        numbers[s] = strings.count
        strings.append(s)
        return strings.count - 1
    }
}
