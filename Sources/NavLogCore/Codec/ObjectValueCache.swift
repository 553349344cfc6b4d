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

    struct Entry {
        var bytes: [UInt8]
        var object: [String: JSONValue]
        var canonical: [UInt8]
    }

    private var slots: [Entry?] = Array(repeating: nil, count: ObjectValueCache.slotCount)

    /// The slot for these bytes (FNV-1a of them).
    @inline(__always)
    private static func slot(_ raw: UnsafeRawBufferPointer) -> Int {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in raw { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: (h ^ (h >> 29)) & UInt64(slotCount - 1))
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
        let slot = Self.slot(raw)
        if let entry = slots[slot], entry.bytes.count == n,
           entry.bytes.withUnsafeBytes({ memcmp($0.baseAddress!, raw.baseAddress!, n) == 0 }) {
            return (entry.object, entry.canonical)
        }
        let object = try decode()
        var writer = CanonicalWriter(capacity: 2 * n)
        writer.write(object: object)
        slots[slot] = Entry(bytes: [UInt8](raw), object: object, canonical: writer.bytes)
        return (object, writer.bytes)
    }
}
