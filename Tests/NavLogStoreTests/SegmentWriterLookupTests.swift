import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

@Suite("Segment writer: is a session new to the store")
struct SegmentWriterLookupTests {
    /// 1,000 short sessions one after another, about 15 a commit: each new
    /// session comes after dozens of commits whose Bloom filters would
    /// answer "maybe" about 1 % of the time.
    static let sessions = segmentSessions(1_000, maxEvents: 6, seed: 5)
    static let options = SegmentWriterOptions(blockTarget: 4 << 10, commitTarget: 16 << 10)

    @Test("New sessions into a store the writer made itself read no block back; a later writer finds stored ones")
    func newSessionsReadNothingBack() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: Self.options)
        for session in Self.sessions {
            for line in session.lines { try writer.add(line) }
        }
        try writer.close()
        #expect(writer.counts.commits > 20)
        #expect(writer.catalog.blocksDecompressed == 0)

        // A second writer knows the first one's commits by their filters only.
        let again = try SegmentWriter(store: SegmentStore.open(at: path, writing: true), options: Self.options)
        for session in Self.sessions.prefix(50) {
            #expect(try again.lastSeq(of: session.id) == session.lines.count)
            for line in session.lines { #expect(try again.add(line) == .duplicate) }
        }
        #expect(try again.lastSeq(of: "never-stored") == 0)
        #expect(try again.lastSeq(of: "") == 0)
        #expect(try again.lastSeq(of: "") == 0)
        try again.close()
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: path))
        #expect(report.problems == [])
        #expect(report.events == Self.sessions.reduce(0) { $0 + $1.lines.count })
    }

    @Test("A re-sent long session is read back once per batch, not once per event")
    func aResentSessionIsReadBackInBatches() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let session = segmentSessions(1, maxEvents: 1_500, seed: 9)[0]
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: Self.options)
        for line in session.lines { try writer.add(line) }
        try writer.close()
        let reader = try SegmentReader(store: SegmentStore.open(at: path))
        #expect(try reader.lines(of: session.id) == session.lines)
        let blocks = reader.blocksDecompressed
        #expect(blocks > 20)

        let again = try SegmentWriter(store: SegmentStore.open(at: path, writing: true), options: Self.options)
        for line in session.lines { #expect(try again.add(line) == .duplicate) }
        try again.close()
        #expect(again.counts.duplicates == session.lines.count)
        // Once to resume the session, once for the duplicates (one batch): not once per event.
        #expect(again.catalog.blocksDecompressed <= 3 * blocks)
    }
}
