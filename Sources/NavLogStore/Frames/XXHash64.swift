/// XXH64, the 64-bit xxHash: navlog's state hash and state chain
/// (schemas/navlog-format.md, "State chain").
///
/// ```swift
/// XXHash64.hash([UInt8]("abc".utf8))   // 0x44BC2CF5AD770999
/// ```
public enum XXHash64 {
    @usableFromInline static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    @usableFromInline static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    @usableFromInline static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    @usableFromInline static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    @usableFromInline static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    /// The XXH64 of `bytes` with `seed`.
    /// - Complexity: O(n).
    public static func hash(_ bytes: UnsafeRawBufferPointer, seed: UInt64 = 0) -> UInt64 {
        let n = bytes.count
        var i = 0
        var h: UInt64
        if n >= 32 {
            var v1 = seed &+ p1 &+ p2
            var v2 = seed &+ p2
            var v3 = seed
            var v4 = seed &- p1
            let limit = n - 32
            while i <= limit {
                v1 = round(v1, bytes.loadLE64(i))
                v2 = round(v2, bytes.loadLE64(i + 8))
                v3 = round(v3, bytes.loadLE64(i + 16))
                v4 = round(v4, bytes.loadLE64(i + 24))
                i += 32
            }
            h = v1.rotl(1) &+ v2.rotl(7) &+ v3.rotl(12) &+ v4.rotl(18)
            h = merge(h, v1)
            h = merge(h, v2)
            h = merge(h, v3)
            h = merge(h, v4)
        } else {
            h = seed &+ p5
        }
        h = h &+ UInt64(n)
        while i + 8 <= n {
            h ^= round(0, bytes.loadLE64(i))
            h = h.rotl(27) &* p1 &+ p4
            i += 8
        }
        if i + 4 <= n {
            h ^= UInt64(bytes.loadLE32(i)) &* p1
            h = h.rotl(23) &* p2 &+ p3
            i += 4
        }
        while i < n {
            h ^= UInt64(bytes[i]) &* p5
            h = h.rotl(11) &* p1
            i += 1
        }
        h ^= h >> 33
        h = h &* p2
        h ^= h >> 29
        h = h &* p3
        h ^= h >> 32
        return h
    }

    /// The XXH64 of `bytes` with `seed`.
    public static func hash(_ bytes: [UInt8], seed: UInt64 = 0) -> UInt64 {
        bytes.withUnsafeBytes { hash($0, seed: seed) }
    }

    @inline(__always) static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        (acc &+ input &* p2).rotl(31) &* p1
    }

    @inline(__always) static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }
}

extension UInt64 {
    @inline(__always) func rotl(_ r: UInt64) -> UInt64 { (self << r) | (self >> (64 - r)) }
}
