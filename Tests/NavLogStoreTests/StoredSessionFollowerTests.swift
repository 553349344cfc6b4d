import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// ``StoredSessionFollower``: a session of a store followed while a writer
/// commits, across segment rolls and a second writer.
@Suite struct StoredSessionFollowerTests {
    /// Small segments: a few commits roll to a new one.
    static let options = SegmentWriterOptions(blockTarget: 4 << 10, checkpointInterval: 16,
                                              commitTarget: 1 << 20, segmentTarget: 16 << 10)

    @Test func handsOutEachCommittedLineOnceAcrossSegmentsAndWriters() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let mine = sampleEvents(1200, session: "a", seed: 3).map { Array($0.canonicalLine.utf8) }
        let other = sampleEvents(1200, session: "b", seed: 4).map { Array($0.canonicalLine.utf8) }
        var writer = try SegmentWriter(store: SegmentStore.create(at: path), options: Self.options)
        _ = try writer.add(mine[0])
        try writer.commit()
        let follower = StoredSessionFollower(try StoredSession(store: path, session: "a"))
        var seen: [[UInt8]] = []
        var seqs: [Int] = []
        func follow() throws -> Int {
            try follower.next { line, seq in
                seen.append(Array(line))
                seqs.append(seq)
            }
        }
        #expect(try follow() == 1)
        #expect(try follow() == 0)
        for (round, end) in [200, 400, 600, 800, 1000, 1200].enumerated() {
            let start = round * 200
            for i in max(start, 1)..<end {
                _ = try writer.add(other[i])
                _ = try writer.add(mine[i])
            }
            // Added, not committed: nothing to see yet.
            #expect(try follow() == 0, "round \(round) before its commit")
            try writer.commit()
            #expect(try follow() == end - max(start, 1), "round \(round)")
            #expect(seen == Array(mine[..<end]), "round \(round)")
            if round == 2 {
                // Another writer takes over (the store is opened again; its last segment is continued).
                try writer.close()
                writer = try SegmentWriter(store: SegmentStore.open(at: path, writing: true), options: Self.options)
            }
        }
        try writer.close()
        #expect(try follow() == 0)
        #expect(seqs == Array(1...1200))
        #expect(follower.lastSeq == 1200)
        #expect(follower.damage.isEmpty)
        #expect(try segmentFiles(path).count >= 4, "segments rolled while following")
        // From a seq on: only what comes after it.
        let late = StoredSessionFollower(try StoredSession(store: path, session: "a"), afterSeq: 1150)
        var lateSeqs: [Int] = []
        try late.next { _, seq in lateSeqs.append(seq) }
        #expect(lateSeqs == Array(1151...1200))
    }
}
