/// Up to 16 bytes as two machine words that, together with the byte count,
/// determine them exactly, loaded without reading outside them: short ids
/// and names hashed and compared without a loop (``StringInterner``, the
/// store's session numbers).
package enum ShortBytes {
    /// The most bytes ``words(_:)`` takes.
    package static let maxCount = 16

    /// The two words of 1 to ``maxCount`` bytes.
    @inlinable @inline(__always)
    package static func words(_ raw: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let n = raw.count
        precondition(n > 0 && n <= maxCount, "1 to 16 bytes")
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
}
