import Foundation
import Testing
import NavLogCore
import NavLogTestSupport
@testable import NavLogStore

/// `reindex` and `verify` make the projection's blocks commit by commit and
/// take the files segment by segment (schemas/screen-projection.md §6): over
/// segments whose commits share sessions, what they build is what the writer
/// kept, byte for byte, and each problem is named in its own segment, at its
/// own block, however the segments before it are covered.
@Suite struct ScreenProjectionStreamingTests {
    /// 60 interleaved sessions in small commits and segments, written with the projection kept.
    static func store(_ dir: TemporaryDirectory) throws -> String {
        let store = dir.file("store")
        let options = SegmentWriterOptions(blockTarget: 2 << 10, commitTarget: 4 << 10, segmentTarget: 16 << 10)
        let writer = try SegmentWriter(store: SegmentStore.create(at: store), options: options)
        for line in interleaved(segmentSessions(60, maxEvents: 30)) { _ = try writer.add(line) }
        try writer.close()
        return store
    }

    static func read(_ store: String, _ segment: Int) throws -> ScreenProjectionFile {
        try #require(try ScreenProjectionFile.read(store: store, segment: segment))
    }

    /// The ids of the sessions a projection file's blocks hold.
    static func sessionIDs(_ file: ScreenProjectionFile) -> Set<[UInt8]> {
        var ids = Set<[UInt8]>()
        for block in file.blocks { block.forEachSessionID { _, id in ids.insert(Array(id)) } }
        return ids
    }

    static func problems(_ store: String) throws -> [SegmentDamage] {
        try SegmentVerifier.verify(store: SegmentStore.open(at: store)).problems
    }

    @Test("Rebuilt from the events, every segment's file is byte for byte the writer's, sessions spanning segments and all")
    func rebuiltIsTheWriters() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        let kept = try ScreenProjectionStoreTests.viewsFiles(store)
        #expect(kept.count >= 3, "\(kept.count) segments")
        let first = try Self.read(store, 1), second = try Self.read(store, 2)
        #expect(first.blocks.count >= 3 && second.blocks.count >= 3, "\(first.blocks.count), \(second.blocks.count) commits")
        #expect(!Self.sessionIDs(first).isDisjoint(with: Self.sessionIDs(second)), "no session spans the first two segments")
        #expect(try Self.problems(store).isEmpty)

        // Built with the runs set down every few sessions: each commit's block made from many pieces, in order.
        let catalog = try SegmentCatalog(store: SegmentStore.open(at: store))
        let set = ScreenProjectionSet(catalog: catalog, commits: catalog.commits.count)
        var built = try ScreenProjectionBuilder.build(store: store, commits: set.segments.flatMap(\.commits), inFlight: 3)
        for segment in set.segments {
            let file = try Self.read(store, segment.number)
            #expect(file.blocks.count == segment.commits.count)
            for block in file.blocks { #expect(built.nextBlock() == block.bytes, "segment \(segment.number), commit \(block.commit)") }
        }

        for file in kept { try FileManager.default.removeItem(atPath: store + "/" + ScreenProjectionFormat.fileName(file.number)) }
        let summary = try ScreenProjectionIndex.reindex(store: store)
        #expect(summary.written == kept.count && summary.kept == 0 && summary.sessions == 60, "\(summary)")
        let rebuilt = try ScreenProjectionStoreTests.viewsFiles(store)
        #expect(rebuilt.map(\.number) == kept.map(\.number))
        for (new, old) in zip(rebuilt, kept) { #expect(new.bytes == old.bytes, "segment \(new.number)") }
        #expect(try ScreenProjectionIndex.reindex(store: store).kept == kept.count)
    }

    @Test("A block of the second segment that differs is reported there, at its record, whether the first segment's file is whole, short or missing")
    func secondSegmentsBlock() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir)
        let first = try Self.read(store, 1), second = try Self.read(store, 2)
        try #require(first.blocks.count >= 2 && second.blocks.count >= 2)
        // Block 2 of the second segment: its first session's first row named otherwise, checksums made right.
        var forged = second.blocks.map(\.bytes)
        let block = second.blocks[1]
        var runs = (0..<block.sessionCount).map(block.run)
        let s = try #require(runs.firstIndex { !$0.occurrences.isEmpty })
        runs[s].occurrences[0].name = "FORGED"
        forged[1] = ScreenProjectionBlock.encode(commit: block.commit, indexOffset: block.indexOffset, runs: runs)
        try ScreenProjectionFile.write(store: store, segment: 2, bytes: ScreenProjectionFile.bytes(segment: 2, blocks: forged))
        let differs = SegmentDamage(file: "00000002.views", offset: second.offsets[1], commit: block.commit,
                                    kind: .projection("block 2 is not what the events of its commit give"))
        #expect(try Self.problems(store) == [differs])

        // The first segment's file covering its first commit only: a hole, and the same block of the second.
        let firstPath = store + "/" + ScreenProjectionFormat.fileName(1)
        try ScreenProjectionFile.write(store: store, segment: 1, bytes: ScreenProjectionFile.bytes(segment: 1, blocks: [first.blocks[0].bytes]))
        let short = SegmentDamage(file: "00000001.views", offset: 0, kind: .projection(
            "covers 1 of the segment's \(first.blocks.count) commits, where later segments have a projection"))
        #expect(try Self.problems(store) == [differs, short])

        // No file for the first segment.
        try FileManager.default.removeItem(atPath: firstPath)
        let missing = SegmentDamage(file: "00000001.views", offset: 0, kind: .projection("missing, where later segments have a projection"))
        #expect(try Self.problems(store) == [differs, missing])

        let summary = try ScreenProjectionIndex.reindex(store: store)
        #expect(summary.written == 2, "\(summary)")
        #expect(try Self.problems(store).isEmpty)
    }
}
