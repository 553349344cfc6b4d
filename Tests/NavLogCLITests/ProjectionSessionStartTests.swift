import Foundation
import Testing
import NavLogTestSupport

/// The writer's projection reads a canonical `session.start` line from its
/// end and takes the rest from an earlier line with the same bytes before
/// `seq`; every other shape of `session.start` is parsed whole. Whatever
/// the shape, the projection it writes is byte for byte what `reindex`
/// builds from the events, and its answers are the events'.
@Suite struct ProjectionSessionStartTests {
    static let app = #""app":{"build":"7","version":"1.0"},"device":{"model":"Pad1"},"#
    static let other = #""app":{"build":"8","version":"2.0"},"device":{"model":"Pad2"},"meta":{"locale":"fr_FR"},"#

    /// Sessions whose `session.start` lines share their bytes before seq,
    /// differ in them, come in another shape, or are not canonical.
    static func lines() -> [String] {
        func start(_ prefix: String, _ seq: Int, _ session: String, _ ms: Int, tail: String = "") -> String {
            "{\(prefix)\"seq\":\(seq),\"session\":\"\(session)\",\"t\":\"2026-11-20T10:00:\(String(format: "%02d", ms / 1000)).\(String(format: "%03d", ms % 1000))Z\",\"type\":\"session.start\"\(tail)}"
        }
        func push(_ seq: Int, _ session: String, _ ms: Int, _ type: String) -> String {
            "{\"seq\":\(seq),\"session\":\"\(session)\",\"stack\":\"main\",\"t\":\"2026-11-20T10:00:\(String(format: "%02d", ms / 1000)).\(String(format: "%03d", ms % 1000))Z\",\"type\":\"stack.push\",\"value\":{\"id\":\"\(seq)\",\"type\":\"\(type)\"}}"
        }
        var lines: [String] = []
        // The same bytes before seq: read from their end after the first.
        for (i, session) in ["a-1", "a-2", "a-session-id-longer-than-fifteen-bytes", "a-4"].enumerated() {
            lines.append(start(app, 1, session, 100 * i))
            lines.append(push(2, session, 100 * i + 10, i % 2 == 0 ? "Recipe" : "Step"))
        }
        lines.append(start(other, 1, "b-1", 900))
        lines.append(push(2, "b-1", 950, "Recipe"))
        lines.append(start(app + #""scene":"pad","#, 1, "b-2", 1000))
        // A seq of many digits, a second session.start (not the one kept), one not first.
        lines.append(start(app, 123_456_789_012, "b-3", 1100))
        lines.append(start(other, 123_456_789_013, "b-3", 1150))
        lines.append(#"{"label":"hello","seq":1,"session":"b-4","t":"2026-11-20T10:00:01.200Z","type":"mark"}"#)
        lines.append(start(app, 2, "b-4", 1250))
        // A member after type (kept in the event), an id with an escape, keys in another order, no seq.
        lines.append(start(app, 1, "c-1", 1300, tail: #","zone":"north""#))
        lines.append(start(app, 1, #"c-\"2"#, 1400))
        lines.append(#"{"type": "session.start", "session": "c-3", "t": "2026-11-20T12:00:01.500+02:00", "app": {"version": "1.0", "build": "7"}, "device": {"model": "Pad1"}}"#)
        lines.append(push(2, "c-3", 1550, "Recipe"))
        // The first shape again, in later commits.
        for i in 0..<6 {
            lines.append(start(app, 1, "d-\(i)", 1600 + 10 * i))
            lines.append(push(2, "d-\(i)", 1605 + 10 * i, "Step"))
        }
        return lines
    }

    @Test("every shape of session.start line: the projection is what reindex builds, and its answers are the events'")
    func everyShape() throws {
        let dir = try TemporaryDirectory()
        let input = dir.file("in.ndjson")
        try (Self.lines().joined(separator: "\n") + "\n").write(toFile: input, atomically: false, encoding: .utf8)
        let store = dir.file("store")
        // A commit after every 4 lines: the shapes fall in several blocks.
        let r = navlog("ingest", input, "--store", store, "--commit-interval", "0", "--chunk-lines", "4", "--json")
        #expect(r.status == 0 && r.stdout.contains("\"projectionBehind\":null"), "\(r.stdout) \(r.stderr)")
        let questions = [
            ["funnel", "STORE", "--step", "*", "--by", "app.version", "--format", "csv"],
            ["funnel", "STORE", "--step", "*", "--by", "device.model", "--format", "csv"],
            ["funnel", "STORE", "--step", "*", "--by", "scene", "--format", "csv"],
            ["funnel", "STORE", "--step", "*", "--by", "zone", "--format", "csv"],
            ["funnel", "STORE", "--step", "*", "--from", "2026-11-20T10:00:01Z", "--format", "csv"],
            ["export", "screens", "STORE", "--with-marks"],
        ]
        try ProjectionFromFirstCommitTests.answersAreTheEvents(store, in: dir, questions)
        #expect(ScreenProjectionTests.answers(store, [questions[0]])[0].contains("2.0"))
        #expect(try ProjectionFromFirstCommitTests.isComplete(store))
    }
}
