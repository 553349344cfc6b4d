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
        try ScreenProjectionFile.write(store: store, segment: 1, bytes: ScreenProjectionFile.bytes(segment: 1, blocks: forged))
        let read = try Self.screenCounts(store)
        #expect((read["FORGED"] ?? 0) > 0 && read != honest)
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: store))
        #expect(report.problems.contains { $0.kind == .projection("block 1 is not what the events of its commit give") }, "\(report.problems)")
        // Decoded blocks give back what was encoded.
        let again = try #require(try ScreenProjectionFile.read(store: store, segment: 1))
        #expect(again.blocks.map(\.bytes) == forged)
    }

    /// A store of `sessions` sessions of one to three events, interleaved, in a few commits (and, unless
    /// `oneSegment`, segments), `prefix` naming them, written with its projection kept.
    static func shortSessionStore(_ store: String, sessions: Int, prefix: String = "u-", oneSegment: Bool = false) throws {
        let options = SegmentWriterOptions(commitTarget: 64 << 10, segmentTarget: oneSegment ? 1 << 30 : 32 << 10)
        let writer = try SegmentWriter(store: SegmentStore.isSegmentStore(store) ? SegmentStore.open(at: store, writing: true) : SegmentStore.create(at: store),
                                       options: options)
        for line in interleaved(segmentSessions(sessions, maxEvents: 3)) {
            _ = try writer.add(Array(String(decoding: line, as: UTF8.self).replacingOccurrences(of: "\"session\":\"u-", with: "\"session\":\"\(prefix)").utf8))
        }
        try writer.close()
    }

    /// Every session as the store's readers see it (the projection's when it covers the store), one line each.
    static func sessions(_ store: String) throws -> [String] {
        var out: [String] = []
        try SessionStream(paths: [store]).forEachSessionForTests { s in
            out.append("\(s.session) \(s.firstEventSeq ?? 0) \(s.firstEventTime.map { "\($0.milliseconds)" } ?? "-") "
                       + "\(s.sessionStart?.canonicalLine ?? "-") \(s.occurrences)")
        }
        return out.sorted()
    }

    /// Whether the store's projection covers every commit (so it, not the events, answers).
    static func isCovered(_ store: String) throws -> Bool {
        let catalog = try SegmentCatalog(store: SegmentStore.open(at: store))
        return ScreenProjectionSet(catalog: catalog, commits: catalog.commits.count).blocks != nil
    }

    static func viewsFiles(_ store: String) throws -> [(number: Int, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: store).sorted().compactMap { name in
            guard let number = ScreenProjectionFormat.segmentNumber(name) else { return nil }
            return (number, try [UInt8](Data(contentsOf: URL(fileURLWithPath: store + "/" + name))))
        }
    }

    @Test("Short sessions: blocks are packed, and a file is much smaller packed than plain; the answers are the events'")
    func packedIsSmaller() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        try Self.shortSessionStore(store, sessions: 3_000)
        let files = try Self.viewsFiles(store)
        #expect(try files.count >= 2 && Self.isCovered(store))
        var packed = 0, plain = 0
        for file in files {
            let read = try #require(try ScreenProjectionFile.read(store: store, segment: file.number))
            #expect(read.problem == nil && !read.blocks.isEmpty)
            packed += file.bytes.count
            plain += try ScreenProjectionFile.bytes(segment: file.number, blocks: read.blocks.map(\.bytes), packs: false).count
        }
        #expect(Double(packed) < 0.75 * Double(plain), "\(packed) bytes packed, \(plain) plain")
        let events = dir.file("events")
        try FileManager.default.copyItem(atPath: store, toPath: events)
        for file in files { try FileManager.default.removeItem(atPath: events + "/" + ScreenProjectionFormat.fileName(file.number)) }
        #expect(try Self.sessions(store) == Self.sessions(events))
    }

    @Test("Files written before packing (minor 0, plain blocks) answer the same, verify clean, take packed blocks appended, and reindex rewrites them packed")
    func writtenBeforePacking() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        try Self.shortSessionStore(store, sessions: 1_500)
        let packed = try Self.viewsFiles(store)
        let answers = try Self.sessions(store)
        #expect(packed.count >= 2 && answers.count == 1_500)
        // Each file as format 1.0 wrote it: header minor 0, every block plain.
        for file in packed {
            let read = try #require(try ScreenProjectionFile.read(store: store, segment: file.number))
            try ScreenProjectionFile.write(store: store, segment: file.number,
                                           bytes: ScreenProjectionFile.bytes(segment: file.number, blocks: read.blocks.map(\.bytes), packs: false))
        }
        let old = try Self.viewsFiles(store)
        let plainAndLarger = zip(old, packed).allSatisfy { $0.bytes.count > $1.bytes.count && $0.bytes[14] == 0 }
        #expect(plainAndLarger)
        #expect(try Self.isCovered(store) && Self.sessions(store) == answers)
        #expect(try SegmentVerifier.verify(store: SegmentStore.open(at: store)).problems.isEmpty)

        // A writer keeps the projection on: packed blocks after the plain ones of the last file.
        try Self.shortSessionStore(store, sessions: 500, prefix: "v-", oneSegment: true)
        let all = try Self.sessions(store)
        #expect(try all.count == 2_000 && Set(answers).isSubset(of: all) && Self.isCovered(store))
        #expect(try SegmentVerifier.verify(store: SegmentStore.open(at: store)).problems.isEmpty)
        let mixed = try Self.viewsFiles(store)
        #expect(mixed.map(\.number) == old.map(\.number))
        let (before, after) = (old.last!.bytes, mixed.last!.bytes)
        let appended = after.count > before.count && after.starts(with: before)
        #expect(appended && Array(after.dropFirst(before.count + 8).prefix(4)) == Array("NLVP".utf8), "the first block appended is packed")

        let summary = try ScreenProjectionIndex.reindex(store: store)
        #expect(summary.written == mixed.count && summary.kept == 0, "\(summary)")
        let rewritten = try Self.viewsFiles(store)
        let current = rewritten.allSatisfy { $0.bytes[14] == 1 }
        #expect(try current && Self.sessions(store) == all)
        #expect(rewritten.map(\.bytes.count).reduce(0, +) < mixed.map(\.bytes.count).reduce(0, +))
        #expect(try ScreenProjectionIndex.reindex(store: store).kept == mixed.count)
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
