import NavLogCore
import NavLogStore

/// What a segment store holds, read back through the library (the reading
/// commands' own tests cover `cat STORE --session ID`).
enum SegmentStoreContents {
    /// Every session's canonical lines, in seq order, by the session's id bytes.
    static func linesBySessionBytes(_ store: String) throws -> [[UInt8]: [String]] {
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        var out: [[UInt8]: [String]] = [:]
        for session in try reader.sessions() {
            out[Array(session.id.utf8)] = try reader.lines(of: session.id).map { String(decoding: $0, as: UTF8.self) }
        }
        return out
    }

    /// Every session's canonical lines, in seq order, by session id.
    static func lines(_ store: String) throws -> [String: [String]] {
        var out: [String: [String]] = [:]
        for (id, lines) in try linesBySessionBytes(store) { out[String(decoding: id, as: UTF8.self)] = lines }
        return out
    }

    /// What the verifier finds wrong with the store (empty when intact).
    static func problems(_ store: String) throws -> [String] {
        try SegmentVerifier.verify(store: SegmentStore.open(at: store)).problems.map(\.description)
    }
}
