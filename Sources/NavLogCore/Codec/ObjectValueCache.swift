#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// A small direct-mapped cache from the bytes of a JSON object (as a line
/// writes it) to the object decoded from them and its canonical bytes.
///
/// Producers repeat the same few objects line after line (`session.start`'s
/// `app` and `device`, a `meta` of one locale): decoding one builds a
/// dictionary of strings, writing it canonically sorts its keys, and both
/// cost more than the rest of the line. The same bytes always decode to the
/// same object (or fail the same way: failures are not kept), so the
/// general parser decodes each distinct object once and the canonical
/// writer writes its bytes again (``LineParserStorage/lineObjects``). A
/// slot holds one object: a new one evicts the old.
final class ObjectValueCache {
    /// Objects longer than this (in the line's bytes) are not cached.
    static let maxBytes = 256
    private static let slotBits = 8
    private static let slotCount = 1 << slotBits

    // Raw buffers, as in ``StringInterner``: a lookup runs for every object
    // of every line the general parser reads, and does no copies, bounds or
    // uniqueness checks. A slot's byte count is 0 while it is empty.
    private let hashes = UnsafeMutablePointer<UInt64>.allocate(capacity: slotCount)
    private let counts = UnsafeMutablePointer<Int>.allocate(capacity: slotCount)
    private let bytes = UnsafeMutableRawPointer.allocate(byteCount: slotCount * maxBytes, alignment: 8)
    private let objects = UnsafeMutablePointer<[String: JSONValue]>.allocate(capacity: slotCount)
    private let canonicals = UnsafeMutablePointer<[UInt8]>.allocate(capacity: slotCount)

    init() {
        hashes.initialize(repeating: 0, count: Self.slotCount)
        counts.initialize(repeating: 0, count: Self.slotCount)
        objects.initialize(repeating: [:], count: Self.slotCount)
        canonicals.initialize(repeating: [], count: Self.slotCount)
    }

    deinit {
        objects.deinitialize(count: Self.slotCount)
        canonicals.deinitialize(count: Self.slotCount)
        objects.deallocate()
        canonicals.deallocate()
        bytes.deallocate()
        counts.deallocate()
        hashes.deallocate()
    }

    /// A hash of the bytes, 8 at a time.
    @inline(__always)
    private static func hash(_ raw: UnsafeRawBufferPointer) -> UInt64 {
        let p = raw.baseAddress!, n = raw.count
        var h = UInt64(truncatingIfNeeded: n) &* 0x9e37_79b9_7f4a_7c15
        var i = 0
        while i + 8 <= n {
            h = (h ^ p.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x100_0000_01b3
            h ^= h >> 31
            i += 8
        }
        while i < n {
            h = (h ^ UInt64(p.load(fromByteOffset: i, as: UInt8.self))) &* 0x100_0000_01b3
            i += 1
        }
        return h ^ (h >> 29)
    }

    /// The object these bytes hold and its canonical bytes (as
    /// ``CanonicalWriter/write(object:)`` writes it), decoding them with
    /// `decode` the first time (or when their slot was taken since); what
    /// `decode` throws is thrown. No canonical bytes for an object too long to be cached.
    @inline(__always)
    func object(
        _ raw: UnsafeRawBufferPointer, decode: () throws(EventParseError) -> [String: JSONValue]
    ) throws(EventParseError) -> (object: [String: JSONValue], canonical: [UInt8]?) {
        let n = raw.count
        guard n > 0, n <= Self.maxBytes else { return (try decode(), nil) }
        let h = Self.hash(raw)
        let slot = Int(truncatingIfNeeded: h & UInt64(Self.slotCount - 1))
        let kept = bytes + slot * Self.maxBytes
        if counts[slot] == n, hashes[slot] == h, memcmp(kept, raw.baseAddress!, n) == 0 {
            return (objects[slot], canonicals[slot])
        }
        let object = try decode()
        var writer = CanonicalWriter(capacity: 2 * n)
        writer.write(object: object)
        kept.copyMemory(from: raw.baseAddress!, byteCount: n)
        counts[slot] = n
        hashes[slot] = h
        objects[slot] = object
        canonicals[slot] = writer.bytes
        return (object, writer.bytes)
    }
}
