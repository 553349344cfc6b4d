#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Session ids numbered 0, 1, 2, … in the order first seen, looked up by
/// their exact UTF-8 bytes (Swift's `String ==` would hold `"e\u{301}"` and
/// `"\u{E9}"` equal) straight from a line's bytes, without making a
/// `String`. An open-addressing table over one arena of key bytes.
struct SessionNumbers {
    private struct Entry {
        var start: Int
        var length: Int
        var hash: UInt64
    }

    private var keyBytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Entry index + 1 per slot; 0 is an empty slot. Its count is a power of two.
    private var slots = [Int](repeating: 0, count: 64)

    /// Sessions numbered so far.
    var count: Int { entries.count }

    /// The number of session `key`, numbering it when new.
    @inline(__always)
    mutating func number(of key: UnsafeRawBufferPointer) -> (number: Int, isNew: Bool) {
        let hash = Self.hash(key)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] != 0 {
            let entry = entries[slots[slot] - 1]
            if entry.hash == hash, entry.length == key.count, matches(entry, key) { return (slots[slot] - 1, false) }
            slot = (slot + 1) & mask
        }
        let number = entries.count
        entries.append(Entry(start: keyBytes.count, length: key.count, hash: hash))
        keyBytes.append(contentsOf: key)
        slots[slot] = number + 1
        if entries.count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// The number of session `id`, numbering it when new.
    mutating func number(of id: String) -> (number: Int, isNew: Bool) {
        var id = id
        return id.withUTF8 { number(of: UnsafeRawBufferPointer($0)) }
    }

    /// The bytes of session `number`.
    func key(_ number: Int) -> [UInt8] {
        let entry = entries[number]
        return Array(keyBytes[entry.start..<entry.start + entry.length])
    }

    /// A hash of the key: for up to 16 bytes, two words mixed (ids are
    /// usually that short); XXH64 beyond.
    @inline(__always)
    private static func hash(_ key: UnsafeRawBufferPointer) -> UInt64 {
        let n = key.count
        guard n > 0, n <= ShortBytes.maxCount else { return XXHash64.hash(key) }
        let (w0, w1) = ShortBytes.words(key)
        // Both words folded in, then a full 64-bit finaliser (MurmurHash3's
        // fmix64): ids often differ only in their last bytes, which sit in
        // a word's top bits, and the table indexes by the low bits.
        var h = w0 ^ (w1 &* 0x9E37_79B9_7F4A_7C15) ^ (UInt64(n) << 59)
        h ^= h >> 33
        h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33
        h &*= 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return h
    }

    private func matches(_ entry: Entry, _ key: UnsafeRawBufferPointer) -> Bool {
        guard entry.length > 0 else { return true }
        return keyBytes.withUnsafeBytes { all in
            memcmp(all.baseAddress! + entry.start, key.baseAddress!, entry.length) == 0
        }
    }

    private mutating func grow() {
        slots = [Int](repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for (index, entry) in entries.enumerated() {
            var slot = Int(truncatingIfNeeded: entry.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = index + 1
        }
    }
}
