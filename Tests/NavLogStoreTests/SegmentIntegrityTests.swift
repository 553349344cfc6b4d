import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

@Suite("Segment store integrity")
struct SegmentIntegrityTests {
    /// A store of one segment and several commits with checkpoints; the sessions written.
    static func makeStore(_ path: String, sessionsKept: Int = 65_536) throws -> [(id: String, lines: [[UInt8]])] {
        var sessions = segmentSessions(60, maxEvents: 40, seed: 21)
        sessions.append(("long", sampleEvents(700, session: "long", seed: 2).map { Array($0.canonicalLine.utf8) }))
        let options = SegmentWriterOptions(blockTarget: 2 << 10, checkpointInterval: 64, commitTarget: 12 << 10,
                                           sessionsKept: sessionsKept)
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: options)
        for line in interleaved(sessions) { try writer.add(line) }
        try writer.close()
        return sessions
    }

    static func copyStore(_ from: String, _ to: String) throws {
        try? FileManager.default.removeItem(atPath: to)
        try FileManager.default.copyItem(atPath: from, toPath: to)
    }

    @Test("A verified store has no problems, also when the writer forgot and read back its sessions")
    func cleanStore() throws {
        for kept in [65_536, 0] {
            let dir = try TemporaryDirectory()
            let sessions = try Self.makeStore(dir.file("store"), sessionsKept: kept)
            let report = try SegmentVerifier.verify(store: SegmentStore.open(at: dir.file("store")))
            #expect(report.problems == [], "sessionsKept \(kept)")
            #expect(report.events == sessions.reduce(0) { $0 + $1.lines.count })
            #expect(report.checkpoints == 10)
            #expect(report.commits > 5)
        }
    }

    @Test("A session continued by later writers (read back from checkpoint and chain) verifies and folds as one")
    func continuedAcrossWriters() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let long = sampleEvents(1_000, session: "long", seed: 4).map { Array($0.canonicalLine.utf8) }
        let options = SegmentWriterOptions(blockTarget: 2 << 10, checkpointInterval: 64, commitTarget: 8 << 10)
        _ = try SegmentStore.create(at: path)
        for part in [0..<150, 150..<610, 610..<1_000] {
            let writer = try SegmentWriter(store: SegmentStore.open(at: path, writing: true), options: options)
            for line in long[part] { try writer.add(line) }
            try writer.close()
        }
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: path))
        #expect(report.problems == [])
        #expect(report.checkpoints == 1_000 / 64)
        let reader = try SegmentReader(store: SegmentStore.open(at: path))
        for position in [63, 64, 640, 999, 1_000] {
            #expect(try reader.state(of: "long", atPosition: position)?.state == (try foldedState(long, session: "long", position: position)))
        }
    }

    @Test("Cut after the durable point: a torn tail, what is committed stays readable, every session a prefix; the next writer cuts it aside. Cut before it: damage")
    func tornTail() throws {
        let dir = try TemporaryDirectory()
        let original = dir.file("store")
        let sessions = try Self.makeStore(original)
        let segment = try #require(try segmentFiles(original).first)
        let bytes = fileBytes(segment)
        let full = try SegmentCatalog(store: SegmentStore.open(at: original))
        let ends = full.segments[0].contents.indexLocations.map { $0.offset + Int64($0.length) }
        let eventsUpTo = { (cut: Int64) in zip(ends, full.segments[0].contents.commits).filter { $0.0 <= cut }.reduce(0) { $0 + $1.1.eventCount } }
        var rng = SeededGenerator(seed: 5)
        var cuts = (0..<20).map { _ in Int64(rng.next() % UInt64(bytes.count)) }
        cuts += ends.prefix(3) + [ends[1] - 1, ends[1] + 1, 10, Int64(SegmentFormat.preambleBytes)]
        for cut in cuts {
            let copy = dir.file("cut")
            try Self.copyStore(original, copy)
            try FileManager.default.removeItem(atPath: copy + "/00000001.nls")
            writeFile(copy + "/00000001.nls", Array(bytes.prefix(Int(cut))))
            // The durable point still names the last commit: every cut is before it, damage.
            #expect(throws: SegmentStoreError.self, "cut at \(cut)") { try SegmentReader(store: SegmentStore.open(at: copy)) }
            #expect(!(try SegmentVerifier.verify(store: SegmentStore.open(at: copy)).isIntactButTail), "cut at \(cut)")
            #expect(throws: SegmentStoreError.self, "cut at \(cut)") { try SegmentWriter(store: SegmentStore.open(at: copy, writing: true)) }
            // A crash after the last commit ending at or before the cut became durable: the rest is a torn tail.
            let durable = Array(zip(ends, full.segments[0].contents.commits)).last { $0.0 <= cut }
            try DurablePointFile.create(store: copy, point: DurablePoint(generation: 7, commit: durable?.1.number ?? 0,
                                                                         segment: durable == nil ? 0 : 1, end: durable?.0 ?? 0))
            let reader = try SegmentReader(store: SegmentStore.open(at: copy))
            let onlyTail = reader.problems.allSatisfy { $0.isTornTail }
            #expect(onlyTail, "cut at \(cut)")
            #expect(reader.problems.isEmpty == ends.contains(cut) || cut == Int64(SegmentFormat.preambleBytes), "cut at \(cut)")
            var stored = 0
            for session in sessions {
                let lines = try reader.lines(of: session.id)
                #expect(Array(session.lines.prefix(lines.count)) == lines, "cut at \(cut), \(session.id)")
                stored += lines.count
            }
            #expect(stored == eventsUpTo(cut), "cut at \(cut)")
            let report = try SegmentVerifier.verify(store: SegmentStore.open(at: copy))
            #expect(report.isIntactButTail, "cut at \(cut): \(report.problems)")

            // The next writer keeps the cut bytes aside, then takes every event again.
            let writer = try SegmentWriter(store: SegmentStore.open(at: copy, writing: true))
            if cut > Int64(SegmentFormat.preambleBytes) && !ends.contains(cut) {
                let recovery = try #require(writer.recoveries.first, "cut at \(cut)")
                #expect(fileBytes(recovery.sideFile) == Array(bytes[Int(recovery.cutOffset)..<Int(cut)]))
            }
            for line in interleaved(sessions) { try writer.add(line) }
            try writer.close()
            #expect(writer.counts.stored == sessions.reduce(0) { $0 + $1.lines.count } - stored, "cut at \(cut)")
            let after = try SegmentReader(store: SegmentStore.open(at: copy))
            for session in sessions { #expect(try after.lines(of: session.id) == session.lines, "cut at \(cut), \(session.id)") }
            #expect(try SegmentVerifier.verify(store: SegmentStore.open(at: copy)).problems == [], "cut at \(cut)")
        }
    }

    /// Where the frames of a kind are in the store's one segment.
    static func regions(_ path: String) throws -> (data: [Range<Int64>], index: [Range<Int64>], checkpoint: [Range<Int64>]) {
        let catalog = try SegmentCatalog(store: SegmentStore.open(at: path))
        let contents = catalog.segments[0].contents
        let data = contents.commits.flatMap { $0.blocks.map { $0.offset..<($0.offset + Int64($0.length)) } }
        let index = contents.indexLocations.map { $0.offset..<($0.offset + Int64($0.length)) }
        let checkpoint = contents.commits.flatMap { $0.checkpoints.map { $0.offset..<($0.offset + Int64($0.length)) } }
        return (data, index, checkpoint)
    }

    @Test("Flipped bits in data, index and checkpoint bytes are reported with segment, offset and kind")
    func flippedBits() throws {
        let dir = try TemporaryDirectory()
        let original = dir.file("store")
        _ = try Self.makeStore(original)
        let bytes = fileBytes(original + "/00000001.nls")
        let (data, index, checkpoint) = try Self.regions(original)
        #expect(!data.isEmpty && !index.isEmpty && !checkpoint.isEmpty)
        var rng = SeededGenerator(seed: 17)
        func flipAndVerify(_ region: Range<Int64>, skipHeader: Int64, expect kind: (SegmentFault) -> Bool) throws {
            let at = region.lowerBound + skipHeader + Int64(rng.next() % UInt64(region.count - Int(skipHeader) - 4))
            var damaged = bytes
            damaged[Int(at)] ^= 1 << UInt8(rng.next() % 8)
            let copy = dir.file("flip")
            try Self.copyStore(original, copy)
            writeFile(copy + "/00000001.nls", damaged)
            let report = try SegmentVerifier.verify(store: SegmentStore.open(at: copy))
            let found = report.problems.first { kind($0.kind) }
            #expect(found?.file == "00000001.nls", "byte \(at): \(report.problems)")
            #expect(found?.offset == region.lowerBound, "byte \(at): \(report.problems)")
            #expect(!report.isIntactButTail)
            // One problem: not also the commit's counts, the next block's continuation, or later checkpoints.
            #expect(report.problems.count == 1, "byte \(at): \(report.problems)")
        }
        for _ in 0..<12 {
            // Inside a data frame's LZ4 blocks (past the frame header and the first block's size).
            let block = data[Int(rng.next() % UInt64(data.count))]
            try flipAndVerify(block, skipHeader: 15 + 4) { if case .dataFrame = $0 { true } else { false } }
            let record = index[Int(rng.next() % UInt64(index.count))]
            try flipAndVerify(record, skipHeader: 8) { if case .commitIndex = $0 { true } else { false } }
            let state = checkpoint[Int(rng.next() % UInt64(checkpoint.count))]
            try flipAndVerify(state, skipHeader: 8) { if case .checkpoint = $0 { true } else { false } }
        }
    }

    /// Flips the byte `offset` bytes after the session id in the payload of
    /// the store's first checkpoint and writes the record's checksum anew
    /// (damage that the checksum does not show); the record's range.
    static func forgeFirstCheckpoint(_ path: String, flippingByteAfterID offset: Int) throws -> Range<Int64> {
        let state = try #require(try Self.regions(path).checkpoint.first)
        var bytes = fileBytes(path + "/00000001.nls")
        let payload = Int(state.lowerBound) + 8
        let idLength = Int(bytes[payload + 12]) | Int(bytes[payload + 13]) << 8
        bytes[payload + offset + idLength] ^= 0x01
        let end = Int(state.upperBound) - 4
        let checksum = bytes.withUnsafeBytes { XXHash32.hash(UnsafeRawBufferPointer(rebasing: $0[payload..<end])) }
        for i in 0..<4 { bytes[end + i] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt32(i))) }
        writeFile(path + "/00000001.nls", bytes)
        return state
    }

    @Test("A checkpoint whose chain hash is wrong under a valid checksum is found by recomputing it")
    func wrongChainUnderValidChecksum() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        _ = try Self.makeStore(path)
        let state = try Self.forgeFirstCheckpoint(path, flippingByteAfterID: 30)   // c_P, §5.2
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: path))
        #expect(report.problems.count == 1)
        #expect(report.problems.first?.offset == state.lowerBound)
        #expect(report.problems.first.map { if case .checkpoint = $0.kind { true } else { false } } == true)
    }

    @Test("A checkpoint whose state frame does not decompress says its kind once, to verify and to a reader")
    func stateFrameThatDoesNotDecompress() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        _ = try Self.makeStore(path)
        let state = try Self.forgeFirstCheckpoint(path, flippingByteAfterID: 42)   // the state frame's magic, §5.2
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: path))
        let found = try #require(report.problems.first { $0.offset == state.lowerBound }, "\(report.problems)")
        #expect(found.description.contains(": checkpoint: state frame: "), "\(found)")
        #expect(found.description.components(separatedBy: "checkpoint").count == 2, "\(found)")
        let catalog = try SegmentCatalog(store: SegmentStore.open(at: path))
        let at = try #require(catalog.commits.indices.lazy.compactMap { commit in
            catalog.index(catalog.commits[commit]).checkpoints.first { $0.offset == state.lowerBound }.map { (commit, $0) }
        }.first)
        do {
            _ = try catalog.readCheckpoint(commit: at.0, at.1)
            Issue.record("the damaged checkpoint was read")
        } catch {
            #expect(error.description.contains("byte \(state.lowerBound): checkpoint: state frame: "), "\(error)")
            #expect(error.description.components(separatedBy: "checkpoint").count == 2, "\(error)")
        }
    }

    @Test("An unknown file in the store is reported")
    func unknownFile() throws {
        let dir = try TemporaryDirectory()
        _ = try Self.makeStore(dir.file("store"))
        writeFile(dir.file("store/notes.txt"), Array("hi".utf8))
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: dir.file("store")))
        #expect(report.problems == [SegmentDamage(file: "notes.txt", offset: 0, kind: .unknownFile)])
    }
}
