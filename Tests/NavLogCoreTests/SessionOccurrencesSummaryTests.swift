import Testing
@testable import NavLogCore

/// `SessionOccurrences.add(canonical:parser:names:)`, the projection
/// writer's way past the event: the rows it records from a canonical line's
/// summary are those `add(_:names:)` records from the line's event — checked
/// over generated sessions and a session through every kind and anomaly.
@Suite struct SessionOccurrencesSummaryTests {
    /// The occurrences, first `session.start`, first seq and time of each
    /// session of `lines`, recorded from summaries where there are some
    /// (events otherwise), and from events only; and how many lines were read by their summary.
    static func both(_ lines: [[UInt8]]) -> (summarized: [String: SessionOccurrences], applied: [String: SessionOccurrences], bySummary: Int) {
        var summarizer = EventLineParser()
        var parser = EventLineParser()
        let names = ScreenNameCache()
        var summarized: [String: SessionOccurrences] = [:], applied: [String: SessionOccurrences] = [:]
        var bySummary = 0
        for line in lines {
            guard let event = try? parser.parse(line) else {
                Issue.record("a line does not parse: \(String(decoding: line, as: UTF8.self))")
                continue
            }
            applied[event.session, default: SessionOccurrences(session: event.session)].add(event, names: names)
            var recorder = summarized[event.session] ?? SessionOccurrences(session: event.session)
            let read = line.withUnsafeBytes { recorder.add(canonical: $0, parser: &summarizer, names: names) }
            if let read {
                bySummary += 1
                #expect(read.seq == event.seq && read.t == event.t)
            } else {
                recorder.add(event, names: names)
            }
            summarized[event.session] = recorder
        }
        return (summarized, applied, bySummary)
    }

    static func expectSame(_ a: [String: SessionOccurrences], _ b: [String: SessionOccurrences]) {
        #expect(a.keys.sorted() == b.keys.sorted())
        for (session, x) in a {
            guard let y = b[session] else { continue }
            #expect(x.occurrences == y.occurrences, "session \(session)")
            #expect(x.sessionStart == y.sessionStart && x.firstEventSeq == y.firstEventSeq && x.firstEventTime == y.firstEventTime,
                    "session \(session)")
        }
    }

    @Test func generatedSessionsRecordTheSameRowsFromSummaries() {
        let lines = CanonicalLineCheckTests.generatedLines().map(\.1)
        let (summarized, applied, bySummary) = Self.both(lines)
        Self.expectSame(summarized, applied)
        let rows = applied.values.reduce(0) { $0 + $1.occurrences.count }
        #expect(rows > 1000 && bySummary * 100 >= lines.count * 80, "\(rows) rows, \(bySummary) of \(lines.count) lines by summary")
    }

    @Test func everyKindAndAnomalyRecordsTheSameRowsFromSummaries() {
        let (summarized, applied, bySummary) = Self.both(CanonicalLineSummaryTests.handMadeSession.map { Array($0.utf8) })
        Self.expectSame(summarized, applied)
        #expect(applied["s"]?.occurrences.count ?? 0 >= 8)
        // Every line but the two session.start lines.
        #expect(bySummary == CanonicalLineSummaryTests.handMadeSession.count - 2)
    }
}
