import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// `export screens` rows read from a store's screen projection cut into
/// pieces (each part of the store split by hash) and rendered by two
/// workers come out exactly as one worker writes the uncut parts: no row
/// lost, doubled or out of place at a cut.
@Suite struct ProjectedRowPiecesTests {
    /// Interleaved sample sessions over many small commits (so many blocks,
    /// sessions running across several), the projection kept from the first commit.
    static func store(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.file("store")
        let options = SegmentWriterOptions(blockTarget: 1 << 10, checkpointInterval: 8, commitTarget: 4 << 10, segmentTarget: 64 << 10)
        let writer = try SegmentWriter(store: SegmentStore.create(at: store), options: options)
        for line in interleaved(segmentSessions(300, maxEvents: 30)) { _ = try writer.add(line) }
        try writer.close()
        return store
    }

    static func rows(_ store: String, workers: Int, rowsPerPiece: Int, withMarks: Bool) throws -> [Substring] {
        let out = Locked<[UInt8]>([])
        try SessionStream(paths: [store], workers: workers)
            .writeRows(redactor: nil, rowsPerPiece: rowsPerPiece, to: { bytes in out.withLock { $0 += bytes } }) {
                ScreenRows(ndjson: false, withMarks: withMarks)
            }
        return String(decoding: out.withLock { $0 }, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test("pieces rendered by two workers give the rows of the uncut parts read by one, in order", arguments: [false, true])
    func piecesInOrder(withMarks: Bool) throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        let sources = try SessionSource.resolve([store])
        guard case .segments(let first) = try #require(sources.first), let set = first.projection else {
            Issue.record("not read as store parts with a projection")
            return
        }
        let blocks = try #require(set.blocks)
        #expect(blocks.count > 10 && sources.count == SegmentStorePart.defaultParts)
        // The cut: pieces of about 1 row (thousands, many empty), and of about 8.
        #expect(SessionStream.projectedPieces(sources, withTemplates: withMarks, rowsPerPiece: 1).count >= 16 * 64)
        let some = SessionStream.projectedPieces(sources, withTemplates: withMarks, rowsPerPiece: 8).count
        #expect(some > 16 * 2 && some < 16 * SessionStream.maxSplit)

        let one = try Self.rows(store, workers: 1, rowsPerPiece: .max, withMarks: withMarks)
        #expect(one.count > 500)
        for rowsPerPiece in [1, 8] {
            let two = try Self.rows(store, workers: 2, rowsPerPiece: rowsPerPiece, withMarks: withMarks)
            #expect(two.count == one.count)
            if let k = one.indices.first(where: { k in k < two.count && one[k] != two[k] }) {
                Issue.record("row \(k) differs with pieces of \(rowsPerPiece) rows: \(one[k]) / \(two[k])")
            }
        }
    }
}
