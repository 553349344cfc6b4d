import Foundation
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

extension SegmentStoreContents {
    /// Writes every session of the segment store `store` as a log of its own
    /// into `directory` (emptied first), named as a version-1 store names
    /// them; their paths, sorted.
    static func exportLogs(_ store: String, into directory: String) throws -> [String] {
        try? FileManager.default.removeItem(atPath: directory)
        let logs = try VersionOneStore(directory: directory, create: true)
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        for session in try reader.sessions() {
            let writer = try logs.openWriter(forSession: session.id)
            for line in try reader.lines(of: session.id) { try writer.append(try EventParser.parse(line)) }
            try writer.close()
        }
        return try logs.logPaths()
    }
}
