import Foundation
import Testing
import NavLogCore
import NavLogTestSupport
@testable import NavLogStore

/// The screen projection is what funnel and paths read when it covers the
/// store (schemas/screen-projection.md §5): a forged projection with valid
/// checksums changes their answer, and verify names it.
@Suite struct ScreenProjectionStoreTests {
    /// A store of interleaved sample sessions, in several commits and segments, written without a projection, reindexed.
    static func reindexedStore(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.file("store")
        let options = SegmentWriterOptions(blockTarget: 2 << 10, checkpointInterval: 8, commitTarget: 8 << 10, segmentTarget: 32 << 10,
                                           keepsProjection: false)
        let writer = try SegmentWriter(store: SegmentStore.create(at: store), options: options)
        for line in interleaved(segmentSessions(30, maxEvents: 40)) { _ = try writer.add(line) }
        try writer.close()
        let summary = try ScreenProjectionIndex.reindex(store: store)
        #expect(summary.written >= 2 && summary.sessions == 30 && summary.commits > 4)
        return store
    }

    static func screenCounts(_ store: String) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        try SessionStream(paths: [store]).forEachSessionForTests { session in
            for o in session.occurrences where o.target == .screen { counts[o.name, default: 0] += 1 }
        }
        return counts
    }

    @Test("A forged block with valid checksums is read (so the projection is what answers), and verify reports it")
    func forgedIsRead() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.reindexedStore(dir)
        let honest = try Self.screenCounts(store)
        #expect(!honest.isEmpty && honest["FORGED"] == nil)
        let file = try #require(try ScreenProjectionFile.read(store: store, segment: 1))
        #expect(file.problem == nil && !file.blocks.isEmpty)
        let forged = file.blocks.map { block in
            let runs = (0..<block.sessionCount).map { i in
                var run = block.run(i)
                run.occurrences = run.occurrences.map { o in
                    var o = o
                    if o.target == .screen { o.name = "FORGED" }
                    return o
                }
                return run
            }
            return ScreenProjectionBlock.encode(commit: block.commit, indexOffset: block.indexOffset, runs: runs)
        }
        try ScreenProjectionFile.write(store: store, segment: 1, blocks: forged)
        let read = try Self.screenCounts(store)
        #expect((read["FORGED"] ?? 0) > 0 && read != honest)
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: store))
        #expect(report.problems.contains { $0.kind == .projection("block 1 is not what the events of its commit give") }, "\(report.problems)")
        // Decoded blocks give back what was encoded.
        let again = try #require(try ScreenProjectionFile.read(store: store, segment: 1))
        #expect(again.blocks.map(\.bytes) == forged)
    }

    @Test("A block body cut or flipped anywhere is refused or read within its bounds, never a crash")
    func malformedBlocks() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.reindexedStore(dir)
        let file = try #require(try ScreenProjectionFile.read(store: store, segment: 1))
        let body = try #require(file.blocks.first).bytes
        var refused = 0
        let step = ProcessInfo.processInfo.environment["NAVLOG_TEST_SANITIZER"] == nil ? 1 : 7
        for cut in stride(from: 0, to: body.count, by: step) {
            do { _ = try ScreenProjectionBlock(decoding: Array(body.prefix(cut))) } catch { refused += 1 }
        }
        #expect(refused == (body.count + step - 1) / step)
        for i in stride(from: 0, to: body.count, by: step) {
            var bytes = body
            bytes[i] ^= 0xFF
            if let block = try? ScreenProjectionBlock(decoding: bytes) {
                for s in 0..<block.sessionCount { _ = block.run(s) }
            }
        }
    }
}

extension SessionStream {
    /// Every session of every source, on one thread.
    func forEachSessionForTests(_ body: (SessionOccurrences) -> Void) throws(SessionStreamError) {
        for source in sources { try forEachSession(in: source, keepsMarks: true, body) }
    }
}
