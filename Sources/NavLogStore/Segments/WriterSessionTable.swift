#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The writer's sessions in memory, found by the bytes of their id as the
/// line holds them: a table from the id's XXH64 to the sessions with that
/// hash (chained through ``WriterSession/sameHash``), so looking a line's
/// session up makes no `String` and no array.
struct WriterSessionTable {
    private var byHash: [UInt64: WriterSession] = [:]
    private(set) var count = 0

    /// The session whose id is `id` (with XXH64 `hash`), if held.
    func find(_ id: UnsafeRawBufferPointer, hash: UInt64) -> WriterSession? {
        var candidate = byHash[hash]
        while let session = candidate {
            // memcmp: both buffers hold id.count bytes (an empty one may have no address, so it is not called).
            if session.key.id.count == id.count,
               id.isEmpty || session.key.id.withUnsafeBytes({ memcmp($0.baseAddress!, id.baseAddress!, id.count) == 0 }) {
                return session
            }
            candidate = session.sameHash
        }
        return nil
    }

    mutating func insert(_ session: WriterSession) {
        session.sameHash = byHash[session.key.hash]
        byHash[session.key.hash] = session
        count += 1
    }

    /// Forgets every session but `kept`.
    mutating func keepOnly(_ kept: [WriterSession]) {
        byHash.removeAll()
        count = 0
        for session in kept { insert(session) }
    }
}
