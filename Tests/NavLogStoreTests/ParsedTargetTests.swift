import Foundation
import Testing
import NavLogCore
@testable import NavLogStore
import NavLogTestSupport

/// A commit is due when it holds the parsed-events target of events that
/// came parsed from non-canonical lines (for the screen projection), long
/// before the commit target of raw lines: their events stay in memory until
/// the commit lands. Canonical lines, read without building their events,
/// commit by bytes alone.
@Suite struct ParsedTargetTests {
    /// 400 marks of 4 sessions, canonical, or with a space after every `,` (the same events, not canonical).
    static func lines(canonical: Bool) -> String {
        let events = (0..<400).map { i in
            Event(session: "s\(i % 4)", seq: i / 4 + 1, t: Timestamp(milliseconds: 1_795_168_800_000 + Int64(i) * 1000),
                  kind: .mark(label: "m\(i)"))
        }
        let text = String(decoding: ndjson(events), as: UTF8.self)
        return canonical ? text : text.replacingOccurrences(of: "\",\"", with: "\", \"")
    }

    static func commits(canonical: Bool, in dir: TemporaryDirectory) throws -> (commits: Int, lines: [[UInt8]]) {
        let store = dir.file(canonical ? "canonical" : "spaced")
        try lines(canonical: canonical).write(toFile: store + ".ndjson", atomically: false, encoding: .utf8)
        let report = try StoreIngester(store: SegmentStore.create(at: store),
                                       options: .init(writerOptions: SegmentWriterOptions(parsedTarget: 50), commitInterval: nil))
            .ingest(paths: [store + ".ndjson"], onReject: { Issue.record("rejected: \($0)") })
        #expect(report.stored == 400)
        let reader = try SegmentReader(store: SegmentStore.open(at: store))
        return (reader.catalog.commits.count, try (0..<4).flatMap { try reader.lines(of: "s\($0)") })
    }

    @Test func parsedEventsCutCommitsAndTheLinesStoredAreTheSame() throws {
        let dir = try TemporaryDirectory()
        let spaced = try Self.commits(canonical: false, in: dir)
        let canonical = try Self.commits(canonical: true, in: dir)
        #expect(spaced.commits >= 400 / 50, "\(spaced.commits) commits")
        #expect(canonical.commits == 1)
        #expect(spaced.lines == canonical.lines)
        #expect(try ScreenProjectionStoreTests.isCovered(dir.file("spaced")))
    }
}
