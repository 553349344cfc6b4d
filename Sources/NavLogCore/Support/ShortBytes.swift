/// Up to 16 bytes as two machine words that, together with the byte count,
/// determine them exactly, loaded without reading outside them: short ids
/// and names hashed and compared without a loop (``StringInterner``,
/// ``ShortNames``, ``CanonicalKeyMatcher``).
package enum ShortBytes {
    /// The most bytes ``words(_:)`` takes.
    package static let maxCount = 16

    /// The two words of 1 to ``maxCount`` bytes.
    @inlinable @inline(__always)
    package static func words(_ raw: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let n = raw.count
        precondition(n > 0 && n <= maxCount, "1 to 16 bytes")
        // Unaligned loads inside the buffer: a name read as two words, not a byte at a time.
        let base = raw.baseAddress!
        if n >= 8 {
            return (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        } else if n >= 4 {
            return (UInt64(base.loadUnaligned(as: UInt32.self)),
                    UInt64(base.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)))
        }
        let b = base.assumingMemoryBound(to: UInt8.self)
        return (UInt64(b[0]) | UInt64(b[n >> 1]) << 8 | UInt64(b[n - 1]) << 16, 0)
    }

    /// The one hash of the codec's tables: two words (of ``words(_:)``, or
    /// any two) and a byte count mixed into 64 bits whose high bits are
    /// well spread; a table of 2^k slots takes the top k (``slot(_:_:count:bits:)``).
    @inlinable @inline(__always)
    package static func hash(_ w0: UInt64, _ w1: UInt64, count: Int) -> UInt64 {
        (w0 ^ (w1 &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(truncatingIfNeeded: count)) &* 0xBF58_476D_1CE4_E5B9
    }

    /// The slot of ``hash(_:_:count:)`` in a table of `2^bits` slots.
    @inlinable @inline(__always)
    package static func slot(_ w0: UInt64, _ w1: UInt64, count: Int, bits: Int) -> Int {
        Int(truncatingIfNeeded: hash(w0, w1, count: count) >> UInt64(64 - bits))
    }
}
