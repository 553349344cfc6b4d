/// A small direct-mapped cache from short UTF-8 byte strings to `String`s.
///
/// Event lines repeat the same few names over and over (stack ids, tab
/// names, route types, popular route ids). Making a `String` from bytes
/// validates and copies them every time; this cache compares at most 16
/// bytes as two machine words instead and hands back the `String` it made
/// the first time. A slot holds one string: a new one evicts the old.
///
/// The bytes given must be valid UTF-8 (the caller's scanner checked them):
/// the result is then exactly `String(decoding: bytes, as: UTF8.self)`.
/// Its slots are raw buffers (not arrays) so a lookup does no bounds or
/// uniqueness checks: it runs for nearly every name of every line.
final class StringInterner {
    /// Strings longer than this are not cached.
    static let maxBytes = ShortBytes.maxCount
    private static let slotBits = 10
    private static let slotCount = 1 << slotBits

    /// Two words of key per slot.
    private let words: UnsafeMutablePointer<UInt64>
    /// The byte count of each slot's string; 0 marks an empty slot.
    private let lengths: UnsafeMutablePointer<UInt8>
    private let strings: UnsafeMutablePointer<String>

    init() {
        words = .allocate(capacity: 2 * Self.slotCount)
        words.initialize(repeating: 0, count: 2 * Self.slotCount)
        lengths = .allocate(capacity: Self.slotCount)
        lengths.initialize(repeating: 0, count: Self.slotCount)
        strings = .allocate(capacity: Self.slotCount)
        strings.initialize(repeating: "", count: Self.slotCount)
    }

    deinit {
        strings.deinitialize(count: Self.slotCount)
        strings.deallocate()
        lengths.deallocate()
        words.deallocate()
    }

    /// The string these bytes spell.
    @inline(__always)
    func string(_ raw: UnsafeRawBufferPointer) -> String {
        let n = raw.count
        guard n > 0, n <= Self.maxBytes else {
            return String(decoding: raw, as: UTF8.self)
        }
        let (w0, w1) = ShortBytes.words(raw)
        let slot = ShortBytes.slot(w0, w1, count: n, bits: Self.slotBits)
        if lengths[slot] == UInt8(truncatingIfNeeded: n), words[2 * slot] == w0, words[2 * slot + 1] == w1 {
            return strings[slot]
        }
        let made = String(decoding: raw, as: UTF8.self)
        lengths[slot] = UInt8(truncatingIfNeeded: n)
        words[2 * slot] = w0
        words[2 * slot + 1] = w1
        strings[slot] = made
        return made
    }
}
