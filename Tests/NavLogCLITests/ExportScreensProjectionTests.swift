import Foundation
import Testing
import NavLogStore
import NavLogTestSupport

/// `export screens` read from a store's screen projection (rows made in
/// place from its columns) prints byte for byte what the same store's
/// events give: quoting, seq digits, times across days, leap days and
/// 1970, sessions over several commits, and the rows of `--with-marks`.
@Suite struct ExportScreensProjectionTests {
    /// Interleaved sessions whose ids, screens, marks and links need CSV quoting, at times around day boundaries.
    static func lines() -> [Substring] {
        // A session's first event at the first time, the others at the second, across midnight.
        let days = [("1969-12-31T23:59:59.500Z", "1970-01-01T00:00:00.250Z"), ("2024-02-28T23:59:58.000Z", "2024-02-29T00:00:01.000Z"),
                    ("2024-02-29T23:59:59.990Z", "2024-03-01T00:00:00.000Z"), ("1999-12-31T23:59:59.999Z", "2000-01-01T00:00:00.000Z"),
                    ("2026-11-20T10:00:00.000Z", "2026-11-20T10:00:05.120Z"), ("2099-12-31T23:59:50.000Z", "2100-03-01T00:00:00.000Z")]
        var sessions: [[String]] = []
        for s in 0..<48 {
            let id = ["s-\(s)", "s,\(s)", "s\\\"\(s)"][s % 3]
            let (t0, t1) = days[s % days.count]
            let firstSeq = s % 4 == 0 ? 123_456_789 : 1
            func event(_ seq: Int, _ rest: String) -> String {
                #"{"session":"\#(id)","seq":\#(firstSeq + seq * 7),"t":"\#(seq == 1 ? t0 : t1)",\#(rest)}"#
            }
            var events = [event(1, #""type":"session.start","app":{"version":"1.\#(s % 2)"}"#)]
            for k in 0..<(1 + s % 7) {
                let screen = ["Recipe", "Say", "Tab"][k % 3]
                let name = [#"a,b"#, #"q\"\"x"#, "pie\\nline", "plain"][(s + k) % 4]
                events.append(event(2 + 3 * k, #""type":"stack.push","stack":"main","value":{"type":"\#(screen)","id":"\#(name)-\#(k)"}"#))
                if k % 2 == 0 { events.append(event(3 + 3 * k, #""type":"mark","label":"buy, \"now\" \#(k)""#)) }
                if k % 3 == 1 { events.append(event(4 + 3 * k, #""type":"url.open","url":"app://x?a=1,b=\"\#(k)\"""#)) }
            }
            if s % 5 == 0 { events.append(event(40, #""type":"stack.pop","stack":"main""#)) }
            sessions.append(events)
        }
        // Round robin, so that sessions run over several commits.
        var out: [Substring] = []
        for k in 0..<(sessions.map(\.count).max() ?? 0) {
            for events in sessions where k < events.count { out.append(Substring(events[k])) }
        }
        return out
    }

    static let questions: [[String]] = [
        ["export", "screens", "STORE"],
        ["export", "screens", "STORE", "--with-marks"],
        ["export", "screens", "STORE", "--format", "ndjson"],
        ["export", "screens", "STORE", "--with-marks", "--format", "ndjson"],
    ]

    @Test("the projection's rows are the events' rows, byte for byte")
    func sameBytes() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        try makeSegmentStore(store, lines: Self.lines(),
                             options: SegmentWriterOptions(blockTarget: 1 << 10, checkpointInterval: 4, commitTarget: 2 << 10,
                                                           segmentTarget: 16 << 10, keepsProjection: false))
        #expect(try SegmentReader(store: SegmentStore.open(at: store)).commitCount > 3)
        let fromEvents = ScreenProjectionTests.answers(store, Self.questions)
        #expect(try ScreenProjectionTests.projectionFiles(store).isEmpty)
        let r = navlog("reindex", store)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try !ScreenProjectionTests.projectionFiles(store).isEmpty)
        let fromProjection = ScreenProjectionTests.answers(store, Self.questions)
        for (question, (a, b)) in zip(Self.questions, zip(fromEvents, fromProjection)) {
            #expect(a == b, "\(question)")
        }
        // The inputs reach what they are for: quoted ids and names, marks, links, starts, dates before 1970 and on leap days.
        let marks = fromProjection[1]
        for needle in ["\"s,1\",", "\"s\"\"2\",", "a,b-0\",", ",mark\n", ",url\n", ",start\n", ",session\n",
                       "1970-01-01T00:00:00.250Z", "2024-02-29T00:00:01.000Z", "2024-03-01T00:00:00.000Z", ",123456838,"] {
            #expect(marks.contains(needle), "\(needle)")
        }
        #expect(fromProjection[0].split(separator: "\n").count > 100)
    }
}
