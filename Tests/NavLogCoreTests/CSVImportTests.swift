import NavLogCore
import NavLogSample
import Testing

@Suite("Import: CSV reader and event rows")
struct CSVImportTests {
    /// Records of `text` fed in one piece, and fed one byte at a time.
    func records(_ text: String, limit: Int = 1 << 20) -> [CSVReader.Record] {
        var whole = CSVReader(maxRecordBytes: limit)
        var out: [CSVReader.Record] = []
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buf in whole.feed(buf) { out.append($0) } }
        whole.finish { out.append($0) }
        var single = CSVReader(maxRecordBytes: limit)
        var byByte: [CSVReader.Record] = []
        for b in bytes { [b].withUnsafeBytes { buf in single.feed(buf) { byByte.append($0) } } }
        single.finish { byByte.append($0) }
        #expect(byByte.map(\.line) == out.map(\.line))
        #expect(byByte.map(\.fields) == out.map(\.fields))
        #expect(byByte.map(\.error) == out.map(\.error))
        return out
    }

    @Test func rfc4180() {
        let r = records("a,b,c\r\n\"x, y\",\"say \"\"hi\"\"\",\r\n\n\"multi\r\nline\",2,3\nlast,,\"\"")
        #expect(r.map(\.line) == [1, 2, 4, 6])
        #expect(r.map(\.fields) == [["a", "b", "c"], ["x, y", "say \"hi\"", ""], ["multi\r\nline", "2", "3"], ["last", "", ""]])
        #expect(r.allSatisfy { $0.error == nil })
        #expect(records("a\rb,c\n").map(\.fields) == [["a\rb", "c"]])
        #expect(records("é,ü\n").map(\.fields) == [["é", "ü"]])
    }

    @Test func malformedRecordsAreReportedAndReadPast() {
        let r = records("ok,1\nba\"d,2\n\"x\"y,3\n\"open,4\nstill open\"\nfine,5\n\"never closed\n")
        #expect(r.map(\.line) == [1, 2, 3, 4, 6, 7])
        #expect(r.map { $0.error?.description } == [
            nil,
            #"field "field 1": quote inside an unquoted field"#,
            #"field "field 1": text after a closing quote"#,
            nil,
            nil,
            #"field "(record)": quoted field not closed before the end of input"#,
        ])
        #expect(r[3].fields == ["open,4\nstill open"])
        #expect(r[4].fields == ["fine", "5"])
        let long = records("a,b\n" + String(repeating: "x", count: 100) + "\nc,d\n", limit: 50)
        #expect(long.map { $0.error?.description } == [nil, "line is 51 bytes, over the limit of 50", nil])
        #expect(long.map(\.fields) == [["a", "b"], [], ["c", "d"]])
        var bad = CSVReader()
        var out: [CSVReader.Record] = []
        ([0x61, 0xFF, 0x2C, 0x62, 0x0A, 0x63, 0x0A] as [UInt8]).withUnsafeBytes { bad.feed($0) { out.append($0) } }
        #expect(out.map { $0.error?.description } == [#"field "field 1": invalid UTF-8"#, nil])
    }

    static let columns = CSVEventConverter.Columns(session: ["user_id", "session_id"], time: "timestamp", event: "event", screenName: "screen")

    @Test func theFixtureBecomesEvents() throws {
        var converter = CSVEventConverter(columns: Self.columns, screens: GlobPattern("screen_view"))
        let r = records(importFixture("events.csv"))
        try converter.readHeader(r[0].fields)
        let events = try r.dropFirst().map { try converter.convert($0.fields) }
        #expect(r.dropFirst().map(\.line) == [2, 3, 4, 5, 8])
        #expect(events.map(\.session) == ["u-1:1001", "u-1:1001", "u-1:1001", "u-2:2002", "u-2:2002"])
        #expect(events.map(\.t.rfc3339) == ["2026-11-20T10:00:00.000Z", "2026-11-20T10:00:03.500Z", "2026-11-20T10:00:06.000Z",
                                            "2026-11-20T10:01:00.000Z", "2026-11-20T10:01:09.250Z"])
        #expect(events.map(\.kind) == [
            .stackSet(stack: "main", path: [RouteValue(type: "Home")]),
            .stackSet(stack: "main", path: [RouteValue(type: "Recipe, apple pie")]),
            .mark(label: "add_to_cart"),
            .stackSet(stack: "main", path: [RouteValue(type: "Search")]),
            .mark(label: "purchase"),
        ])
        #expect(events.map(\.meta) == [["plan": .string("free")], ["plan": .string("free")], ["plan": .string("free \"trial\"")],
                                       ["plan": .string("multi\r\nline")], ["plan": .string("pro")]])
    }

    @Test func headersMustNameTheColumns() {
        var converter = CSVEventConverter(columns: Self.columns, screens: nil)
        #expect(throws: CSVEventConverter.HeaderError.self) { try converter.readHeader(["user_id", "session_id", "event"]) }
        do { try converter.readHeader(["user_id", "session_id", "event", "timestamp", "timestamp", "screen"]) } catch {
            #expect(error.description == #"column "timestamp" appears 2 times in the header"#)
        }
        #expect(!converter.hasHeader)
    }

    @Test(arguments: [
        ("u,1,open,2026-11-20T10:00:00Z", #"field "(record)": 4 fields, the header has 5"#),
        (",,open,2026-11-20T10:00:00Z,", #"missing required field "user_id,session_id""#),
        ("u,1,open,yesterday,", #"field "timestamp": not a time: "yesterday" (RFC 3339, YYYY-MM-DD HH:MM:SS in UTC, or integer ms)"#),
        ("u,1,open,2026-11-20 10:00:00+02:00,", #"field "timestamp": not a time: "2026-11-20 10:00:00+02:00" (RFC 3339, YYYY-MM-DD HH:MM:SS in UTC, or integer ms)"#),
        ("u,1,open,99999999999999999,", #"field "timestamp": 99999999999999999 ms is outside years 0000–9999"#),
        ("u,1,screen_view,2026-11-20T10:00:00Z,", #"field "screen": empty screen name"#),
    ] as [(String, String)])
    func malformedRowsAreRejected(row: String, reason: String) throws {
        var converter = CSVEventConverter(columns: Self.columns, screens: GlobPattern("screen_*"))
        try converter.readHeader(["user_id", "session_id", "event", "timestamp", "screen"])
        let fields = records(row + "\n")[0].fields
        #expect(throws: EventParseError.self) { try converter.convert(fields) }
        do { _ = try converter.convert(fields) } catch { #expect(error.description == reason) }
    }

    /// navlog → CSV → import: every session's screens (runs collapsed) and marks.
    @Test func generatedSessionsRoundTrip() throws {
        let generator = SampleGenerator(SampleGenerator.Options(sessions: 40, seed: 9, interleave: true, liveSessions: 8))
        var writer = FlatExportWriter()
        var text = FlatExportWriter.csvHeader + "\r\n"
        var original: [Event] = []
        for event in generator.events() {
            original.append(event)
            for row in writer.csvRows(for: event) { text += row + "\r\n" }
        }
        var converter = CSVEventConverter(columns: Self.columns, screens: GlobPattern("screen_view"))
        let r = records(text)
        try converter.readHeader(r[0].fields)
        let imported = try r.dropFirst().map { try converter.convert($0.fields) }
        let before = foldBySession(original)
        let after = foldBySession(imported)
        #expect(after.count == before.count)
        for (id, source) in before {
            let start = generator.session(at: Int(id.dropFirst(2))! - 1).start
            guard let copy = after["u-\(id):\(start.milliseconds)"] else { Issue.record("\(id) missing"); continue }
            #expect(copy.views.map(\.screen) == collapsed(source.views.map(\.screen)), "\(id)")
            #expect(copy.marks == source.marks, "\(id)")
        }
    }
}
