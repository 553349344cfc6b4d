import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// The writer compresses, writes and syncs a commit on a thread of its own
/// while it gathers the next one: the store must be byte for byte the one
/// written with every commit made and synced before the next line is taken.
@Suite("Segment writer thread")
struct SegmentWriterThreadTests {
    static let options = SegmentWriterOptions(blockTarget: 4 << 10, checkpointInterval: 32, commitTarget: 24 << 10,
                                              segmentTarget: 20 << 10, sessionsKept: 64, keepsProjection: true)

    /// Writes `lines` into a new store at `path`: with commits in flight
    /// (the writer's own), or each made by `commit()` at the same points.
    static func write(_ lines: [[UInt8]], to path: String, inFlight: Bool) throws -> SegmentWriter.Counts {
        var options = Self.options
        if !inFlight { options.commitTarget = Int.max }
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: options)
        var gathered = 0
        for line in lines {
            guard try writer.add(line) == .stored else { continue }
            gathered += line.count + 1
            if !inFlight, gathered >= Self.options.commitTarget {
                try writer.commit()
                gathered = 0
            }
        }
        try writer.close()
        return writer.counts
    }

    @Test("Commits written while the next is gathered give the same bytes as commits made one by one")
    func sameBytes() throws {
        let dir = try TemporaryDirectory()
        var sessions = segmentSessions(300, maxEvents: 12, seed: 5)
        sessions.append(("long", sampleEvents(400, session: "long", seed: 8).map { Array($0.canonicalLine.utf8) }))
        var lines = interleaved(sessions)
        // Duplicates of lines stored a commit or two ago, while a commit is in flight.
        lines.insert(contentsOf: lines[100..<110], at: lines.count / 2)
        let overlapped = try Self.write(lines, to: dir.file("overlapped"), inFlight: true)
        let serial = try Self.write(lines, to: dir.file("serial"), inFlight: false)
        #expect(overlapped == serial)
        #expect(overlapped.commits > 10 && overlapped.duplicates == 10)
        let files = try segmentFiles(dir.file("overlapped"))
        #expect(files.count > 2, "several segments sealed")
        #expect(files.map { ($0 as NSString).lastPathComponent } == (try segmentFiles(dir.file("serial"))).map { ($0 as NSString).lastPathComponent })
        for (a, b) in zip(files, try segmentFiles(dir.file("serial"))) {
            #expect(FileManager.default.contents(atPath: a) == FileManager.default.contents(atPath: b), "\(a)")
        }
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: dir.file("overlapped")))
        #expect(report.problems == [])
        #expect(report.events == lines.count - 10)
        let reader = try SegmentReader(store: SegmentStore.open(at: dir.file("overlapped")))
        for session in sessions.prefix(20) + [sessions.last!] {
            #expect(try reader.lines(of: session.id) == session.lines, "\(session.id)")
        }
    }

    @Test("A conflict with a line of the commit in flight is found; the writer goes on")
    func conflictWhileInFlight() throws {
        let dir = try TemporaryDirectory()
        let sessions = segmentSessions(200, maxEvents: 20, seed: 11)
        let lines = interleaved(sessions)
        let writer = try SegmentWriter(store: SegmentStore.create(at: dir.file("store")), options: Self.options)
        var checked = 0
        for (k, line) in lines.enumerated() {
            let before = writer.counts.commits
            try writer.add(line)
            // Right after a commit started: the line before is in flight (or landed).
            if writer.sessionsInMemory > 0, k > 0, before != writer.counts.commits || k % 97 == 0 {
                var changed = try EventParser.parse(lines[k - 1])
                changed.t = Timestamp(milliseconds: changed.t.milliseconds + 1)
                #expect(throws: SegmentStoreError.conflict(session: changed.session, seq: changed.seq)) {
                    try writer.add(Array(changed.canonicalLine.utf8))
                }
                #expect(try writer.add(lines[k - 1]) == .duplicate)
                checked += 1
            }
        }
        try writer.close()
        #expect(checked > 10)
        let report = try SegmentVerifier.verify(store: SegmentStore.open(at: dir.file("store")))
        #expect(report.problems == [] && report.events == lines.count)
    }
}
