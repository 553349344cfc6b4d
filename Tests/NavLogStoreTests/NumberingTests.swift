import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// One numbering rule (docs/events.md), ``Sequencer/seq(for:after:)``: every
/// path that gives events their seq — NDJSON input, a log's writer
/// (`append`, the recorder), `ingest` (through the canonical fast path and
/// through the event) and `import` — refuses a seq that does not increase,
/// and an absent seq after the largest one, for the same reason in the same words.
@Suite("One numbering") struct NumberingTests {
    static let notIncreasing = #"field "seq": 3 does not increase (previous accepted seq is 5)"#
    static let exhausted = #"field "seq": session has reached the largest seq"#

    static func mark(seq: Int, session: String = "s") -> Event {
        Event(session: session, seq: seq, t: Timestamp(milliseconds: 1_795_000_000_000), kind: .mark(label: "m\(seq)"))
    }

    /// The event's canonical line.
    static func canonical(_ event: Event) -> String {
        var writer = CanonicalWriter()
        writer.write(event)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// The same event, keys out of canonical order (read through the event, not the fast path).
    static func reordered(_ event: Event) -> String {
        let seq = event.seq == 0 ? "" : #","seq":\#(event.seq)"#
        return #"{"type":"mark","label":"x","t":"2026-11-20T10:00:00Z"\#(seq),"session":"\#(event.session)"}"#
    }

    @Test func theRuleAndItsReasons() throws {
        #expect(try Sequencer.seq(for: 0, after: 5) == 6)
        #expect(try Sequencer.seq(for: 9, after: 5) == 9)
        #expect(throws: SeqRefusal.notIncreasing(seq: 3, previous: 5)) { try Sequencer.seq(for: 3, after: 5) }
        #expect(throws: SeqRefusal.notIncreasing(seq: 5, previous: 5)) { try Sequencer.seq(for: 5, after: 5) }
        #expect(throws: SeqRefusal.exhausted) { try Sequencer.seq(for: 0, after: Int.max) }
        // A seq the caller has (a canonical line's) is checked, never filled in.
        #expect(throws: SeqRefusal.notIncreasing(seq: 0, previous: 5)) { try Sequencer.check(0, after: 5) }
        #expect(SeqRefusal.notIncreasing(seq: 3, previous: 5).description == Self.notIncreasing)
        #expect(SeqRefusal.exhausted.description == Self.exhausted)
    }

    @Test func ndjsonInput() throws {
        var sequencer = Sequencer()
        var five = Self.mark(seq: 5)
        try sequencer.accept(&five)
        var three = Self.mark(seq: 3)
        #expect(throws: EventParseError.self) { try sequencer.accept(&three) }
        do { try sequencer.accept(&three) } catch { #expect(error.description == Self.notIncreasing) }
        var last = Self.mark(seq: Int.max)
        try sequencer.accept(&last)
        var absent = Self.mark(seq: 0)
        do { try sequencer.accept(&absent) } catch { #expect(error.description == Self.exhausted) }
        #expect(absent.seq == 0)
    }

    @Test func aLogsWriter() throws {
        let dir = try TemporaryDirectory()
        let writer = try LogWriter(path: dir.file("s.navlog"))
        try writer.append(Self.mark(seq: 5))
        func refusal(_ event: Event) -> FileError? {
            do { try writer.append(event) } catch { return error }
            return nil
        }
        let decreasing = try #require(refusal(Self.mark(seq: 3)))
        #expect(decreasing.kind == .rejected(.seq(.notIncreasing(seq: 3, previous: 5))))
        #expect(decreasing.reason == "event rejected: " + Self.notIncreasing)
        #expect(decreasing.seq == 3)
        try writer.append(Self.mark(seq: Int.max))
        let exhausted = try #require(refusal(Self.mark(seq: 0)))
        #expect(exhausted.kind == .rejected(.seq(.exhausted)))
        #expect(exhausted.reason == "event rejected: " + Self.exhausted)
        #expect(exhausted.seq == nil)
        try writer.close()
        #expect(try readEvents(dir.file("s.navlog")).map(\.seq) == [5, Int.max])
    }

    @Test func ingest() throws {
        let dir = try TemporaryDirectory()
        let lines = [
            Self.canonical(Self.mark(seq: 5)),
            Self.canonical(Self.mark(seq: 3)),          // the canonical fast path
            Self.reordered(Self.mark(seq: 3)),          // through the event
            Self.canonical(Self.mark(seq: 5)),
            Self.canonical(Self.mark(seq: Int.max)),
            Self.reordered(Self.mark(seq: 0)),
        ]
        writeFile(dir.file("in.ndjson"), Array((lines.joined(separator: "\n") + "\n").utf8))
        let store = try SegmentStore.create(at: dir.file("store"))
        var rejections: [StoreIngester.Rejection] = []
        let report = try StoreIngester(store: store).ingest(paths: [dir.file("in.ndjson")], onReject: { rejections.append($0) })
        // Line 4 is line 1 again: already stored, a no-op.
        #expect(report.stored == 2 && report.duplicates == 1)
        #expect(rejections.map(\.line) == [2, 3, 6])
        #expect(rejections.map(\.refusal) == [.seq(.notIncreasing(seq: 3, previous: 5)), .seq(.notIncreasing(seq: 3, previous: 5)),
                                              .seq(.exhausted)])
        #expect(rejections.map(\.reason) == [Self.notIncreasing, Self.notIncreasing, Self.exhausted])
    }

    /// A session stored from another input is not continued by an import's
    /// events (they have no seq): numbered from 1 within the import, below
    /// the stored seq, they are refused with a reason that says to give `seq`.
    @Test func importDoesNotContinueASessionStoredFromAnotherInput() throws {
        let dir = try TemporaryDirectory()
        writeFile(dir.file("in.ndjson"), Array((Self.canonical(Self.mark(seq: Int.max)) + "\n").utf8))
        _ = try StoreIngester(store: SegmentStore.create(at: dir.file("store"))).ingest(paths: [dir.file("in.ndjson")], onReject: { Issue.record("\($0)") })
        writeFile(dir.file("in.csv"), Array("session,time,event\ns,2026-11-20T10:00:00Z,tap\nt,2026-11-20T10:00:00Z,tap\n".utf8))
        var rejections: [StoreIngester.Rejection] = []
        let converter = CSVEventConverter(columns: .init(session: ["session"], time: "time", event: "event"), screens: nil)
        let report = try StoreImporter(store: SegmentStore.open(at: dir.file("store"), writing: true)).importCSV(paths: [dir.file("in.csv")], converter: converter,
                                                              onReject: { rejections.append($0) })
        #expect(report.stored == 1)
        #expect(rejections.map(\.line) == [2])
        #expect(rejections.map(\.reason) == [
            "seq 1 of session s is not stored and is below its last stored seq \(Int.max) "
                + #"(the line has no seq and was numbered 1 within its input: give "seq" to continue a stored session)"#,
        ])
    }
}
