import Foundation
import NavLogCore
import Testing
import NavLogTestSupport
@testable import NavLogStore

/// Opening the open last segment of a store from its commit indexes,
/// linked back from the durable point (schemas/segment-store.md §5.3, §6.1,
/// §9 "Open without a walk"): what opening reads, and that the answer is the
/// walk's whenever a link does not hold.
@Suite struct SegmentBackLinkTests {
    /// Small blocks and commits: a few hundred events make several commits in one open segment.
    static let options = SegmentWriterOptions(blockTarget: 4 << 10, checkpointInterval: 16, commitTarget: 16 << 10,
                                              segmentTarget: 64 << 20, keepsProjection: false)

    /// A store of one open segment of several commits, and its sessions.
    static func build(_ dir: TemporaryDirectory) throws -> (store: String, sessions: [(id: String, lines: [[UInt8]])]) {
        let store = dir.file("store")
        let sessions = segmentSessions(40, maxEvents: 40)
        let writer = try SegmentWriter(store: SegmentStore.create(at: store), options: options)
        for line in interleaved(sessions) { _ = try writer.add(line) }
        try writer.close()
        return (store, sessions)
    }

    /// What a walk of every frame finds (`repair`'s catalog walks; it keeps damage instead of throwing).
    static func walked(_ store: String) throws -> SegmentCatalog {
        try SegmentCatalog(store: SegmentStore.open(at: store), mode: .repairing)
    }

    static func expectAnswers(_ store: String, _ sessions: [(id: String, lines: [[UInt8]])]) throws {
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        let walk = try walked(store)
        #expect(reader.catalog.segments.map(\.contents.commits) == walk.segments.map(\.contents.commits))
        #expect(reader.catalog.segments.map(\.contents.indexLocations) == walk.segments.map(\.contents.indexLocations))
        for session in sessions {
            #expect(try reader.lines(of: session.id) == session.lines)
            let middle = (session.lines.count + 1) / 2
            let state = try #require(try reader.state(of: session.id, atPosition: middle))
            #expect(state.state == (try foldedState(session.lines, session: session.id, position: middle)))
        }
    }

    /// Flips bit 0 of the byte at `offset` of `path`.
    static func flip(_ path: String, at offset: Int64) throws {
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(offset))
        let byte = try #require(try handle.read(upToCount: 1)).first!
        try handle.seek(toOffset: UInt64(offset))
        try handle.write(contentsOf: [byte ^ 1])
    }

    static func durablePoint(_ store: String) throws -> DurablePoint {
        let found = try DurablePointFile.read(store: store)
        guard case .point(let point) = found else {
            Issue.record("no durable point: \(found)")
            return DurablePoint()
        }
        return point
    }

    @Test func openingAnOpenSegmentReadsItsIndexesNotItsData() throws {
        let dir = try TemporaryDirectory()
        let (store, sessions) = try Self.build(dir)
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        let segment = try #require(reader.catalog.segments.first).contents
        #expect(reader.segmentCount == 1 && !segment.sealed && segment.commits.count >= 4)
        #expect(segment.commits.dropFirst().allSatisfy { $0.backLink > 0 } && segment.commits.first?.backLink == 0)
        let indexBytes = segment.indexLocations.reduce(0) { $0 + $1.length }
        // The preamble, the place a trailer would be, the indexes: nothing else.
        #expect(reader.bytesReadOnOpen <= SegmentFormat.preambleBytes + NavLogFormat.trailerFrameBytes + indexBytes)
        #expect(reader.bytesReadOnOpen * 4 < Int(segment.fileSize), "\(reader.bytesReadOnOpen) of \(segment.fileSize) bytes")
        #expect(try Self.durablePoint(store).indexLength == segment.indexLocations.last?.length)
        try Self.expectAnswers(store, sessions)
    }

    @Test func aStoreWithoutBackLinksIsWalked() throws {
        let dir = try TemporaryDirectory()
        let (store, sessions) = try Self.build(dir)
        // As a writer without back-links leaves it: every link 0, the point without the index's length.
        let segment = try #require(try segmentFiles(store).first)
        let contents = try Self.walked(store).segments[0].contents
        let file = try OpenFile(path: segment, mode: .update)
        for (var index, location) in zip(contents.commits, contents.indexLocations) {
            index.backLink = 0
            var record: [UInt8] = []
            SkippableFrame.appendRecord(.commitIndex, body: index.body(), to: &record)
            #expect(record.count == location.length)
            try file.write(record, at: location.offset)
        }
        file.close()
        var point = try Self.durablePoint(store)
        point.indexLength = 0
        try DurablePointFile.create(store: store, point: point)
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        #expect(reader.bytesReadOnOpen * 2 > Int(contents.fileSize), "a walk reads the frames' headers")
        #expect(reader.catalog.segments[0].contents.commits.allSatisfy { $0.backLink == 0 })
        try Self.expectAnswers(store, sessions)
    }

    /// A back-link that names the wrong place in a record whose checksum
    /// holds: no index is found there, the segment is walked, and the
    /// walk (which does not read links) finds every commit.
    @Test(arguments: [8, -8, 1])
    func aWrongBackLinkWhoseChecksumHoldsIsWalked(_ delta: Int) throws {
        let dir = try TemporaryDirectory()
        let (store, sessions) = try Self.build(dir)
        let segment = try #require(try segmentFiles(store).first)
        let contents = try Self.walked(store).segments[0].contents
        var index = contents.commits[2]
        #expect(index.backLink == contents.indexLocations[1].length)
        index.backLink += delta
        var record: [UInt8] = []
        SkippableFrame.appendRecord(.commitIndex, body: index.body(), to: &record)
        let file = try OpenFile(path: segment, mode: .update)
        try file.write(record, at: contents.indexLocations[2].offset)
        file.close()
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        #expect(reader.bytesReadOnOpen * 2 > Int(contents.fileSize), "a walk reads the frames' headers")
        try Self.expectAnswers(store, sessions)
    }

    /// A damaged link: what the walk says (damage at or before the durable point), never another answer.
    @Test(arguments: ["last index", "a back-link", "first index"])
    func aDamagedIndexIsTheWalksDamage(_ which: String) throws {
        let dir = try TemporaryDirectory()
        let (store, _) = try Self.build(dir)
        let contents = try Self.walked(store).segments[0].contents
        let locations = contents.indexLocations
        let offset: Int64 = switch which {
        case "last index": locations.last!.offset + Int64(locations.last!.length) - 10
        case "a back-link": locations[2].offset + 8 + Int64(SegmentFormat.commitFixedBytes + SegmentFormat.backLinkInBlockRef)
        default: locations[0].offset + 20
        }
        try Self.flip(try #require(try segmentFiles(store).first), at: offset)
        #expect(throws: SegmentStoreError.self) { _ = try SegmentReader(store: SegmentStore.open(at: store)) }
        #expect(try Self.walked(store).damage != nil)
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: store))
        #expect(!report.isIntactButTail)
    }

    /// A damaged durable point slot: the other slot names the commit before,
    /// the last commit is found after it, as a walk finds it.
    @Test func aDamagedSlotOfTheDurablePointFallsBackToTheOtherSlot() throws {
        let dir = try TemporaryDirectory()
        let (store, sessions) = try Self.build(dir)
        let point = try Self.durablePoint(store)
        // The index length of the newest slot (offset 32 of slot generation % 2).
        try Self.flip(DurablePointFile.path(store: store), at: Int64(Int(point.generation % 2) * DurablePoint.slotBytes + 32))
        #expect(try Self.durablePoint(store).commit == point.commit - 1)
        try Self.expectAnswers(store, sessions)
    }

    /// A point whose checksum holds but whose index length is wrong: no link holds, the segment is walked.
    @Test(arguments: [8, -8, 1 << 20])
    func aWrongIndexLengthInThePointIsWalked(_ delta: Int) throws {
        let dir = try TemporaryDirectory()
        let (store, sessions) = try Self.build(dir)
        var point = try Self.durablePoint(store)
        point.indexLength += delta
        try DurablePointFile.create(store: store, point: point)
        try Self.expectAnswers(store, sessions)
    }

    /// Bytes after the durable point: a torn tail, ignored; a commit there
    /// (synced before the point moved) is read as any other.
    @Test func afterTheDurablePointTheWalkGoesOn() throws {
        let dir = try TemporaryDirectory()
        let (store, sessions) = try Self.build(dir)
        let segment = try #require(try segmentFiles(store).first)
        let before = try Self.durablePoint(store)
        // Put the point back one commit: the last commit lies after it.
        let contents = try Self.walked(store).segments[0].contents
        let previous = contents.indexLocations[contents.indexLocations.count - 2]
        try DurablePointFile.create(store: store, point: DurablePoint(generation: before.generation + 1, commit: before.commit - 1,
                                                                      segment: before.segment, end: previous.offset + Int64(previous.length),
                                                                      indexLength: previous.length))
        try Self.expectAnswers(store, sessions)
        #expect(try SegmentReader(store: SegmentStore.open(at: store)).commitCount == contents.commits.count)
        // Then a torn tail after it.
        let file = try OpenFile(path: segment, mode: .update)
        try file.write([UInt8](repeating: 0x5A, count: 100), at: contents.fileSize)
        file.close()
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        #expect(reader.problems.count == 1 && reader.problems.allSatisfy(\.isTornTail))
        try Self.expectAnswers(store, sessions)
    }

    /// A segment cut short before the durable point's end: damage, as the walk says.
    @Test func aSegmentCutBeforeThePointIsDamage() throws {
        let dir = try TemporaryDirectory()
        let (store, _) = try Self.build(dir)
        let segment = try #require(try segmentFiles(store).first)
        let point = try Self.durablePoint(store)
        let file = try OpenFile(path: segment, mode: .update)
        try file.truncate(to: point.end - 3)
        file.close()
        #expect(throws: SegmentStoreError.self) { _ = try SegmentReader(store: SegmentStore.open(at: store)) }
        #expect(try Self.walked(store).damage != nil)
    }
}
