import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// ``StoredSession`` and ``StoredBisect``: a session of a segment store read
/// by id from its checkpoints, equal to folding its events, and reading few blocks.
@Suite struct StoredSessionTests {
    /// Small blocks, K = 64, big commits: one long session spans many blocks of a commit.
    static let options = SegmentWriterOptions(blockTarget: 2 << 10, checkpointInterval: 64,
                                              commitTarget: 512 << 10, segmentTarget: 4 << 20)

    static func store(_ dir: TemporaryDirectory, _ sessions: [[Event]]) throws -> String {
        let path = dir.file("store")
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: options)
        for events in sessions { for event in events { _ = try writer.add(Array(event.canonicalLine.utf8)) } }
        try writer.close()
        return path
    }

    @Test func stateAtASeqComesFromACheckpointAndFewBlocks() throws {
        let dir = try TemporaryDirectory()
        let events = sampleEvents(3000, session: "long", seed: 3, gaps: true)
        let path = try Self.store(dir, [sampleEvents(50, session: "short", seed: 4), events])
        let session = try StoredSession(store: path, session: "long")
        let all = try SegmentReader(store: SegmentStore.open(at: path)).catalog
        let blocks = all.commits.reduce(0) { $0 + all.index($1).blocks.count }
        #expect(blocks >= 100, "the session spans \(blocks) blocks")
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<12 {
            let n = Int(rng.next() % UInt64(events.last!.seq + 10))
            let before = session.blocksDecompressed
            let state = try session.state(at: .seq(n))
            #expect(state == NavigationState(session: "long", folding: events, at: .seq(n)), "seq \(n)")
            // At most K events after a checkpoint, found by a binary search: a few blocks, not the session's ~200.
            #expect(session.blocksDecompressed - before <= 16, "seq \(n): \(session.blocksDecompressed - before) blocks")
        }
        let instant = events[1234].t
        #expect(try session.state(at: .instant(instant)) == NavigationState(session: "long", folding: events, at: .instant(instant)))
        #expect(try session.state(at: .end) == NavigationState(session: "long", folding: events, at: .end))
        #expect(try session.events() == events)
        let summary = try session.summary()
        #expect(summary.events == 3000 && summary.firstSeq == events.first!.seq && summary.lastSeq == events.last!.seq)
        #expect(summary.checkpoints == 3000 / 64)
    }

    @Test func bisectFindsWhatFoldingFinds() throws {
        let dir = try TemporaryDirectory()
        let events = sampleEvents(2500, session: "a", seed: 5)
        var copy = events.map { event in
            var e = event
            e.session = "b"
            return e
        }
        let part = 2400
        copy[part - 1] = try EventParser.parse(
            #"{"seq":\#(part),"session":"b","stack":"zz","t":"\#(events[part - 1].t.rfc3339)","type":"stack.push","value":{"id":"x","type":"Odd"}}"#)
        let path = try Self.store(dir, [events, copy, sampleEvents(30, session: "c", seed: 6)])
        let a = try StoredSession(store: path, session: "a")
        for b in [try a.sibling("b"), try StoredSession(store: path, session: "b")] {
            let found = try StoredBisect.search(a, b, context: 3)
            let folded = DivergenceSearch.firstDivergence(events, copy, sessions: ("a", "b"), context: 3)
            #expect(found.search.diverged && found.search.position == folded.position && found.search.position == part)
            #expect(found.search.leadingA == folded.leadingA && found.search.leadingB == folded.leadingB)
            #expect(found.search.stateA == folded.stateA && found.search.stateB == folded.stateB)
            #expect(found.skippedEvents >= part - 128)
            #expect(found.blocksDecompressed.a <= 16 && found.blocksDecompressed.b <= 16, "\(found.blocksDecompressed)")
        }
        // The same session on both sides never diverges; a session against a shorter one, at its end + 1.
        #expect(try StoredBisect.search(a, a.sibling("a")).search.diverged == false)
        let short = try StoredBisect.search(a, a.sibling("c"))
        #expect(short.search.position == DivergenceSearch.firstDivergence(events, sampleEvents(30, session: "c", seed: 6), sessions: ("a", "c")).position)
        #expect(throws: SessionLookupError.noSession(store: path, session: "zz")) { try a.sibling("zz") }
    }
}
