/// XXH32, the 32-bit xxHash of Yann Collet: the checksum of LZ4 frames
/// (content and block checksums) and of every navlog skippable frame.
///
/// liblz4 builds its own copy of xxHash but does not export it, so navlog
/// carries this implementation (checked against the published test vectors
/// and against the content checksums the `lz4` tool writes).
///
/// ```swift
/// XXHash32.hash([UInt8]("abc".utf8))   // 0x32D153FF
/// ```
public enum XXHash32 {
    @usableFromInline static let p1: UInt32 = 0x9E37_79B1
    @usableFromInline static let p2: UInt32 = 0x85EB_CA77
    @usableFromInline static let p3: UInt32 = 0xC2B2_AE3D
    @usableFromInline static let p4: UInt32 = 0x27D4_EB2F
    @usableFromInline static let p5: UInt32 = 0x1656_67B1

    /// The XXH32 of `bytes` with `seed`.
    /// - Complexity: O(n).
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt32 = 0) -> UInt32 {
        let n = bytes.count
        var i = 0
        var h: UInt32
        if n >= 16 {
            var v1 = seed &+ p1 &+ p2
            var v2 = seed &+ p2
            var v3 = seed
            var v4 = seed &- p1
            let limit = n - 16
            while i <= limit {
                v1 = round(v1, bytes.loadLE32(i))
                v2 = round(v2, bytes.loadLE32(i + 4))
                v3 = round(v3, bytes.loadLE32(i + 8))
                v4 = round(v4, bytes.loadLE32(i + 12))
                i += 16
            }
            h = v1.rotl(1) &+ v2.rotl(7) &+ v3.rotl(12) &+ v4.rotl(18)
        } else {
            h = seed &+ p5
        }
        h = h &+ UInt32(truncatingIfNeeded: n)
        while i + 4 <= n {
            h = (h &+ bytes.loadLE32(i) &* p3).rotl(17) &* p4
            i += 4
        }
        while i < n {
            h = (h &+ UInt32(bytes[i]) &* p5).rotl(11) &* p1
            i += 1
        }
        h ^= h >> 15
        h = h &* p2
        h ^= h >> 13
        h = h &* p3
        h ^= h >> 16
        return h
    }

    /// The XXH32 of `bytes` with `seed`.
    public static func hash(_ bytes: [UInt8], seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    /// The XXH32 of `bytes[range]` with `seed`.
    public static func hash(_ bytes: [UInt8], range: Range<Int>, seed: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { hash(UnsafeRawBufferPointer(rebasing: $0[range]), seed: seed) }
    }

    @inline(__always) static func round(_ acc: UInt32, _ input: UInt32) -> UInt32 {
        (acc &+ input &* p2).rotl(13) &* p1
    }
}

extension UInt32 {
    @inline(__always) func rotl(_ r: UInt32) -> UInt32 { (self << r) | (self >> (32 - r)) }
}
