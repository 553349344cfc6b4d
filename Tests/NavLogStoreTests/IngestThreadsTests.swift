import Foundation
import Testing
import NavLogCore
@testable import NavLogStore
import NavLogTestSupport

/// Ingest validates lines on a thread of its own and stores them on the
/// calling one: it must store the events a plain one-line-at-a-time reading
/// (``NDJSONEventReader``, the numbering rule) accepts, with the same seqs,
/// and report the rejections in input order; however small its commits
/// and however few sessions its writer keeps, the store holds the same.
struct IngestThreadsTests {
    /// Interleaved sessions with every kind of trouble mixed in: lines the
    /// reading thread cannot skim (escaped keys, non-string sessions, not
    /// JSON), lines that skim but do not parse, seq regressions, blank and
    /// over-long lines, a session id that differs only in Unicode form.
    static func troubledInput() -> (bytes: [UInt8], lines: Int) {
        var rng = SeededGenerator(seed: 17)
        let sessions = (1...12).map { sampleEvents(150, session: "s-\($0)", seed: UInt64($0), gaps: $0 % 3 == 0) }
        var next = Array(repeating: 0, count: sessions.count)
        var out: [UInt8] = []
        var lines = 0
        let t = #""t":"2026-11-20T10:00:00.000Z""#
        let troubles = [
            #"{"label":"x","sess\u0069on":"s-1",\#(t),"type":"mark"}"#,           // not skimmable, parses: stored
            #"{"session":7,\#(t),"type":"mark","label":"x"}"#,                     // not skimmable, rejected
            "not json at all",
            #"{"seq":"one","session":"s-2",\#(t),"type":"mark","label":"x"}"#,    // skims, rejected by its thread
            #"{"seq":1,"session":"s-3",\#(t),"type":"mark","label":"again"}"#,    // seq regression
            #"{"meta":{"session":"s-4"},"session":"s-5",\#(t),"type":"mark","label":"m"}"#,
            #"{"session":"e\#u{301}",\#(t),"type":"mark","label":"decomposed"}"#,
            #"{"session":"\#u{E9}",\#(t),"type":"mark","label":"precomposed"}"#,
            #"{"session":"s-6",\#(t),"type":"mark","label":"dup","label":"dup"}"#,
            "   ",
            "",
        ]
        while next.contains(where: { $0 < 150 }) {
            let s = Int(rng.next() % UInt64(sessions.count))
            guard next[s] < 150 else { continue }
            if rng.next() % 25 == 0 {
                out += Array(troubles[Int(rng.next() % UInt64(troubles.count))].utf8)
            } else if rng.next() % 400 == 0 {
                out += Array(#"{"label":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: EventParser.maxLineBytes) + Array(#""}"#.utf8)
            } else {
                var event = sessions[s][next[s]]
                if rng.next() % 4 == 0 { event.seq = 0 }
                out += ndjson([event]).dropLast()
                next[s] += 1
            }
            out.append(0x0A)
            lines += 1
        }
        return (out, lines)
    }

    @Test func itStoresWhatAPlainReadingAccepts() throws {
        let dir = try TemporaryDirectory()
        let (input, lines) = Self.troubledInput()
        writeFile(dir.file("in.ndjson"), input)
        // The reference: every line read, parsed and numbered in order.
        var expected: [[UInt8]: [Event]] = [:]  // by exact bytes: "e\u{301}" and "\u{E9}" are two sessions
        var expectedRejections: [Int] = []
        var sequencer = Sequencer()
        try NDJSONEventReader(path: dir.file("in.ndjson")).forEach(sequencer: &sequencer) { (result) throws(Never) in
            switch result {
            case .success(let event): expected[Array(event.session.utf8), default: []].append(event)
            case .failure(let rejected): expectedRejections.append(rejected.line)
            }
        }
        var reports: [StoreIngester.Report] = []
        for (n, options) in [SegmentWriterOptions(), SegmentWriterOptions(blockTarget: 512, checkpointInterval: 16, commitTarget: 4096, sessionsKept: 0)].enumerated() {
            let store = try SegmentStore.create(at: dir.file("store-\(n)"))
            var rejections: [StoreIngester.Rejection] = []
            let report = try StoreIngester(store: store, options: .init(writerOptions: options))
                .ingest(paths: [dir.file("in.ndjson")], onReject: { rejections.append($0) })
            #expect(report.read == lines)
            #expect(report.stored + report.rejected + report.blankLines == lines)
            #expect(report.duplicates == 0)
            #expect(rejections.map(\.line) == expectedRejections, "rejections are those of a plain reading, in input order")
            #expect(!rejections.contains { $0.reason.contains("internal error") })
            let reader = try SegmentReader(store: SegmentStore.open(at: dir.file("store-\(n)")))
            #expect(try reader.sessions().count == expected.count)
            for (session, events) in expected {
                let stored = try reader.lines(of: String(decoding: session, as: UTF8.self)).map { try EventParser.parse($0) }
                #expect(stored == events, "\(events[0].session)")
            }
            #expect(try SegmentVerifier.verify(store: SegmentStore.open(at: dir.file("store-\(n)"))).problems.isEmpty)
            reports.append(report)
        }
        #expect(reports[0].stored == reports[1].stored && reports[0].sessions == reports[1].sessions)
        #expect(reports[0].sessions == 14 && reports[0].newSessions == 14 && reports[0].rejected > 10)
        // The same input again (lines without seq numbered within it), by a writer that forgets
        // every idle session between its small commits: every event is already stored.
        let small = SegmentWriterOptions(blockTarget: 512, checkpointInterval: 16, commitTarget: 4096, sessionsKept: 0)
        let again = try StoreIngester(store: SegmentStore.open(at: dir.file("store-1"), writing: true), options: .init(writerOptions: small))
            .ingest(paths: [dir.file("in.ndjson")], onReject: { _ in })
        #expect(again.stored == 0 && again.duplicates == reports[1].stored)
    }

    /// The sessions counted are exact when the writer forgets sessions
    /// between commits and reads them back: one stored in this run is not
    /// counted twice, one stored before is not new, one that only got
    /// duplicates is not counted.
    @Test func sessionsAreCountedOnceWhenForgottenAndReadBack() throws {
        let dir = try TemporaryDirectory()
        let a = sampleEvents(10, session: "a", seed: 1), b = sampleEvents(5, session: "b", seed: 2)
        let c = sampleEvents(10, session: "c", seed: 3), d = sampleEvents(10, session: "d", seed: 4)
        writeFile(dir.file("first.ndjson"), ndjson(Array(a[..<5]) + b))
        var second: [Event] = []
        for i in 0..<10 {
            if i >= 5 { second.append(a[i]) } else { second.append(b[i]) }
            second += [c[i], d[i]]
        }
        writeFile(dir.file("second.ndjson"), ndjson(second))
        let options = SegmentWriterOptions(blockTarget: 256, commitTarget: 256, sessionsKept: 0)
        let first = try StoreIngester(store: SegmentStore.create(at: dir.file("store")), options: .init(writerOptions: options))
            .ingest(paths: [dir.file("first.ndjson")], onReject: { Issue.record("rejected: \($0)") })
        #expect(first.sessions == 2 && first.newSessions == 2)
        let report = try StoreIngester(store: SegmentStore.open(at: dir.file("store"), writing: true), options: .init(writerOptions: options))
            .ingest(paths: [dir.file("second.ndjson")], onReject: { Issue.record("rejected: \($0)") })
        #expect(report.stored == 25 && report.duplicates == 5)
        #expect(report.sessions == 3, "a, c and d got events stored; b only duplicates")
        #expect(report.newSessions == 2, "c and d")
    }

    /// Lines already canonical are stored as they are; the others as their
    /// events' canonical lines: `lz4 -dc` of the store gives exactly those.
    @Test func everyLineIsStoredCanonically() throws {
        let dir = try TemporaryDirectory()
        let sessions = (1...5).map { sampleEvents(300, session: "s-\($0)", seed: UInt64($0), gaps: $0 == 2) }
        var input: [UInt8] = []
        var rng = SeededGenerator(seed: 9)
        for i in 0..<300 {
            for s in sessions.indices {
                var event = sessions[s][i]
                switch rng.next() % 3 {
                case 0: input += [0x7B, 0x20] + ndjson([event]).dropFirst()     // "{ " …: not canonical
                case 1 where s != 1:                                            // no seq (s-2 has gaps)
                    event.seq = 0
                    input += ndjson([event])
                default: input += ndjson([event])
                }
            }
        }
        writeFile(dir.file("in.ndjson"), input)
        let store = try SegmentStore.create(at: dir.file("store"))
        let report = try StoreIngester(store: store).ingest(paths: [dir.file("in.ndjson")], onReject: { Issue.record("rejected: \($0)") })
        #expect(report.stored == 1500 && report.sessions == 5)
        let reader = try SegmentReader(store: SegmentStore.open(at: dir.file("store")))
        for events in sessions {
            #expect(try reader.lines(of: events[0].session).map { $0 + [0x0A] }.joined().map { $0 } == ndjson(events), "\(events[0].session)")
        }
    }
}
