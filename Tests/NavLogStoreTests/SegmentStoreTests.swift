import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

@Suite("Segment store")
struct SegmentStoreTests {
    @Test("10,000 sessions under way: few files open, every segment is lz4 -dc readable, every session read back")
    func roundTripManySessions() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let sessions = segmentSessions(10_000, maxEvents: 9)
        let input = interleaved(sessions)
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: smallSegmentOptions)
        var peakOpen = 0
        for (i, line) in input.enumerated() {
            #expect(try writer.add(line) == .stored)
            if i % 5_000 == 0 { peakOpen = max(peakOpen, try openDescriptors(inside: path)) }
        }
        try writer.close()
        // The writer holds the LOCK file, the durable point and the segment it appends to.
        #expect(peakOpen >= 3 && peakOpen <= 5)
        #expect(writer.counts.stored == input.count)
        #expect(writer.counts.commits > 3)

        // Files follow volume: segments of ~1 MiB, not one per session.
        let files = try segmentFiles(path)
        let total = files.reduce(0) { $0 + ((try? FileManager.default.attributesOfItem(atPath: $1)[.size] as? Int) ?? 0) }
        #expect(files.count >= 2 && files.count <= total / (1 << 20) + 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).count == files.count + 3)

        // lz4 -dc of every segment: exactly the stored lines, each session's in seq order.
        var decoded: [[UInt8]] = []
        for file in files {
            let out = runForBytes(lz4Tool, ["-dc", file])
            #expect(out.status == 0, "\(out.stderr)")
            decoded += out.stdout.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
        }
        #expect(decoded.count == input.count)
        #expect(decoded.sorted { $0.lexicographicallyPrecedes($1) } == input.sorted { $0.lexicographicallyPrecedes($1) })
        var bySession: [String: [[UInt8]]] = [:]
        for line in decoded { bySession[try EventParser.parse(line).session, default: []].append(line) }
        for session in sessions { #expect(bySession[session.id] == session.lines) }

        // Read back through the index.
        let reader = try SegmentReader(store: SegmentStore.open(at: path))
        #expect(reader.problems.isEmpty)
        for session in sessions.prefix(300) { #expect(try reader.lines(of: session.id) == session.lines) }
        let listed = try reader.sessions()
        #expect(listed.count == sessions.count)
        #expect(Set(listed.map(\.id)) == Set(sessions.map(\.id)))
        #expect(listed.reduce(0) { $0 + $1.events } == input.count)
    }

    @Test("A short session is found by id decompressing about one block per commit it is in")
    func lookupById() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let sessions = segmentSessions(5_000, maxEvents: 6, seed: 3)
        let writer = try SegmentWriter(store: SegmentStore.create(at: path),
                                       options: SegmentWriterOptions(blockTarget: 16 << 10, commitTarget: 64 << 20))
        for session in sessions { for line in session.lines { try writer.add(line) } }
        try writer.close()
        let reader = try SegmentReader(store: SegmentStore.open(at: path))
        #expect(reader.commitCount == 1)
        var rng = SeededGenerator(seed: 11)
        for _ in 0..<50 {
            let session = sessions[Int(rng.next() % UInt64(sessions.count))]
            let before = reader.blocksDecompressed
            #expect(try reader.lines(of: session.id) == session.lines)
            #expect(reader.blocksDecompressed - before <= 2)
        }
        let before = reader.blocksDecompressed
        #expect(try reader.lines(of: "no-such-session").isEmpty)
        #expect(try reader.state(of: "no-such-session", atPosition: 3) == nil)
        #expect(reader.blocksDecompressed - before <= 2)
    }

    @Test("State at a position equals the fold of that many events, from checkpoints")
    func stateAtPosition() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let long = sampleEvents(3_000, session: "long").map { Array($0.canonicalLine.utf8) }
        let other = sampleEvents(500, session: "other", seed: 5).map { Array($0.canonicalLine.utf8) }
        let options = SegmentWriterOptions(blockTarget: 4 << 10, checkpointInterval: 128, commitTarget: 64 << 10)
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: options)
        for (i, line) in long.enumerated() {
            try writer.add(line)
            if i < other.count { try writer.add(other[i]) }
        }
        try writer.close()
        let reader = try SegmentReader(store: SegmentStore.open(at: path))
        for position in [0, 1, 127, 128, 129, 1000, 2_999, 3_000] {
            let got = try #require(try reader.state(of: "long", atPosition: position))
            #expect(got.position == position)
            #expect(got.state == (try foldedState(long, session: "long", position: position)), "position \(position)")
        }
        #expect(try reader.state(of: "long", atPosition: 5_000)?.position == 3_000)
        // From the checkpoint at 2944, at most K events are folded: few blocks.
        let before = reader.blocksDecompressed
        _ = try reader.state(of: "long", atPosition: 2_990)
        #expect(reader.blocksDecompressed - before <= 6)
    }

    @Test("Adding the same events again stores nothing; a different event at a stored seq is a conflict")
    func duplicatesAndConflicts() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let sessions = segmentSessions(200, maxEvents: 30, seed: 9)
        let input = interleaved(sessions)
        let first = try SegmentWriter(store: SegmentStore.create(at: path), options: smallSegmentOptions)
        for line in input { try first.add(line) }
        // Within the same run too (pending and committed).
        #expect(try first.add(input[0]) == .duplicate)
        try first.close()
        let sizes = try segmentFiles(path).map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int }

        let again = try SegmentWriter(store: SegmentStore.open(at: path, writing: true), options: smallSegmentOptions)
        for line in input { #expect(try again.add(line) == .duplicate) }
        #expect(again.counts.duplicates == input.count && again.counts.stored == 0)
        let session = sessions.first { $0.lines.count >= 3 }!
        var changed = try EventParser.parse(session.lines[1])
        changed.t = Timestamp(milliseconds: changed.t.milliseconds + 1)
        #expect(throws: SegmentStoreError.conflict(session: session.id, seq: 2)) {
            try again.add(Array(changed.canonicalLine.utf8))
        }
        // A seq below the stored ones that is not stored.
        var gap = try EventParser.parse(session.lines[0])
        gap.seq = 0
        let next = Array(Event(session: session.id, seq: session.lines.count + 1, t: gap.t, kind: .mark(label: "x")).canonicalLine.utf8)
        #expect(try again.lastSeq(of: session.id) == session.lines.count)
        #expect(try again.lastSeq(of: "never-seen") == 0)
        #expect(try again.add(next) == .stored)
        try again.close()
        #expect(try segmentFiles(path).count >= sizes.count)
        let reader = try SegmentReader(store: SegmentStore.open(at: path))
        #expect(try reader.lines(of: session.id) == session.lines + [next])
    }

    @Test("A second writer is refused at once, having written nothing, while the first holds the lock")
    func secondWriterRefused() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let first = try SegmentWriter(store: SegmentStore.create(at: path))
        try first.add(Array(sampleEvents(1, session: "a")[0].canonicalLine.utf8))
        let names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect(throws: SegmentStoreError.locked(store: path)) { try SegmentStore.open(at: path, writing: true) }
        #expect("\(SegmentStoreError.locked(store: path))" == "\(path): another writer holds the store's lock")
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).sorted() == names)
        // Readers take no lock.
        #expect(try SegmentReader(store: SegmentStore.open(at: path)).commitCount == 0)
        try first.close()
        let second = try SegmentWriter(store: SegmentStore.open(at: path, writing: true))
        try second.close()
    }

    @Test("A directory without a manifest is not a store; another major version is refused")
    func manifest() throws {
        let dir = try TemporaryDirectory()
        #expect(throws: SegmentStoreError.notAStore(path: dir.path)) { try SegmentStore.open(at: dir.path) }
        writeFile(dir.file("navlog-store"), Array("navlog-store 3.0\n".utf8))
        #expect(throws: SegmentStoreError.unsupportedVersion(path: dir.path, version: "3.0")) { try SegmentStore.open(at: dir.path) }
        #expect(throws: SegmentStoreError.alreadyExists(path: dir.path)) { try SegmentStore.create(at: dir.path) }
        let fresh = dir.file("new")
        _ = try SegmentStore.create(at: fresh)
        #expect(fileBytes(fresh + "/navlog-store") == Array("navlog-store 2.1\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: fresh + "/navlog-store.tmp"))
    }
}
