import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// A segment store read as a stream of sessions (SessionSource.segments):
/// every session whole and once, in session-key order, across parts,
/// blocks and commits; only the commits made before the read began; and
/// the summaries' sort past a chunk.
@Suite struct SegmentStreamTests {
    /// Every session's lines, read part after part.
    static func read(_ sources: [SessionSource]) throws -> [(id: String, lines: [[UInt8]])] {
        var out: [(id: String, lines: [[UInt8]])] = []
        for case .segments(let part) in sources {
            try SegmentPartScan(part).forEachLine { line, starts in
                if starts { out.append(("", [])) }
                out[out.count - 1].lines.append(Array(line))
            }
        }
        return out.map { session in
            let id = try? EventParser.parse(session.lines[0]).session
            return (id ?? "", session.lines)
        }
    }

    @Test("Each session once, whole, in seq order; sessions in key order across parts")
    func wholeSessions() throws {
        let dir = try TemporaryDirectory()
        let sessions = try SegmentIntegrityTests.makeStore(dir.file("store"))
        let sources = try SessionSource.resolve([dir.file("store")])
        #expect(sources.count == SegmentStorePart.defaultParts)
        let read = try Self.read(sources)
        #expect(read.count == sessions.count)
        let keys = read.map { SessionKey($0.id) }
        #expect(keys == keys.sorted())
        let byID = Dictionary(uniqueKeysWithValues: sessions.map { ($0.id, $0.lines) })
        for session in read { #expect(byID[session.id] == session.lines, "\(session.id)") }
    }

    @Test("A read sees the commits made before it began, not those a writer adds during it")
    func committedAtResolve() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("store")
        let sessions = segmentSessions(30, maxEvents: 20, seed: 5)
        let writer = try SegmentWriter(store: SegmentStore.create(at: path), options: smallSegmentOptions)
        for session in sessions.prefix(20) { for line in session.lines { try writer.add(line) } }
        try writer.commit()
        let sources = try SessionSource.resolve([path])
        for session in sessions.dropFirst(20) { for line in session.lines { try writer.add(line) } }
        for line in sessions[0].lines.prefix(1) { try writer.add(line) }     // a duplicate, stored already
        try writer.commit()
        let read = try Self.read(sources)
        #expect(Set(read.map(\.id)) == Set(sessions.prefix(20).map(\.id)))
        #expect(try Self.read(SessionSource.resolve([path])).count == 30)
        try writer.close()
    }

    @Test("Summaries sort by id bytes past a chunk, through temporary files")
    func summariesSpill() throws {
        var rng = SeededGenerator(seed: 3)
        let ids = (0..<257).map { i in "s-\(rng.next() % 1000)-\(i)\(i % 5 == 0 ? "\t\u{e9}" : "")" }
        for chunk in [1000, 10, 1] {
            let sorter = SessionSummarySorter(chunk: chunk)
            for (i, id) in ids.enumerated() {
                var summary = SessionSummary(id: id)
                summary.add(t: Timestamp(milliseconds: Int64(i)))
                summary.appVersion = i % 3 == 0 ? nil : (i % 3 == 1 ? "" : "v\(i)\n")
                try sorter.add(summary)
            }
            var out: [SessionSummary] = []
            while let summary = try sorter.next() { out.append(summary) }
            #expect(out.map(\.id) == ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }, "chunk \(chunk)")
            for summary in out {
                let i = try #require(ids.firstIndex(of: summary.id))
                #expect(summary.first.milliseconds == Int64(i) && summary.events == 1)
                #expect(summary.appVersion == (i % 3 == 0 ? nil : (i % 3 == 1 ? "" : "v\(i)\n")))
            }
        }
    }
}
