/// Little-endian integer reads and writes on byte buffers: every multi-byte
/// field of the `.navlog` format is little-endian (schemas/navlog-format.md).
extension Array where Element == UInt8 {
    @inlinable mutating func appendLE(_ v: UInt16) {
        append(UInt8(truncatingIfNeeded: v))
        append(UInt8(truncatingIfNeeded: v >> 8))
    }

    @inlinable mutating func appendLE(_ v: UInt32) {
        append(UInt8(truncatingIfNeeded: v))
        append(UInt8(truncatingIfNeeded: v >> 8))
        append(UInt8(truncatingIfNeeded: v >> 16))
        append(UInt8(truncatingIfNeeded: v >> 24))
    }

    @inlinable mutating func appendLE(_ v: UInt64) {
        appendLE(UInt32(truncatingIfNeeded: v))
        appendLE(UInt32(truncatingIfNeeded: v >> 32))
    }

    @inlinable mutating func appendLE(_ v: Int64) { appendLE(UInt64(bitPattern: v)) }
}

extension UnsafeRawBufferPointer {
    /// The little-endian `UInt16` at `offset` (no alignment needed).
    @inlinable func loadLE16(_ offset: Int) -> UInt16 {
        UInt16(self[offset]) | UInt16(self[offset + 1]) << 8
    }

    /// The little-endian `UInt32` at `offset` (no alignment needed).
    @inlinable func loadLE32(_ offset: Int) -> UInt32 {
        UInt32(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The little-endian `UInt64` at `offset` (no alignment needed).
    @inlinable func loadLE64(_ offset: Int) -> UInt64 {
        UInt64(littleEndian: loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }
}

extension Array where Element == UInt8 {
    /// The little-endian `UInt32` at `offset`; the caller checks bounds.
    @inlinable func loadLE32(_ offset: Int) -> UInt32 {
        withUnsafeBytes { $0.loadLE32(offset) }
    }

    /// The little-endian `UInt64` at `offset`; the caller checks bounds.
    @inlinable func loadLE64(_ offset: Int) -> UInt64 {
        withUnsafeBytes { $0.loadLE64(offset) }
    }
}
