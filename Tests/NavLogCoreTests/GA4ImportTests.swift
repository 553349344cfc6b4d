import NavLogCore
import NavLogSample
import Testing

@Suite("Import: GA4 / Firebase BigQuery export")
struct GA4ImportTests {
    @Test func theFixtureBecomesSessions() {
        var converter = GA4Converter()
        let (events, rejected) = convertLines(&converter, importFixture("ga4.ndjson").split(separator: "\n").map(String.init))
        #expect(rejected.isEmpty)
        #expect(events.map(\.session) == ["A1B2C3:1795168800", "A1B2C3:1795168800", "A1B2C3:1795168800", "A1B2C3:1795168800", "A1B2C3:1795168800",
                                          "D4E5F6:1795168810", "D4E5F6:1795168810", "D4E5F6:1795170700", "D4E5F6:1795170700"])
        guard events.count == 9 else { return }
        #expect(events[0].kind == .sessionStart(
            app: ["id": .string("com.example.recipes"), "version": .string("3.1.0"), "firebase_app_id": .string("1:123:ios:abc"),
                  "install_source": .string("com.apple.AppStore")],
            device: ["category": .string("mobile"), "mobile_brand_name": .string("Apple"), "mobile_model_name": .string("iPhone"),
                     "operating_system": .string("iOS"), "operating_system_version": .string("iOS 18.1"), "language": .string("en-us"),
                     "is_limited_ad_tracking": .string("No"), "platform": .string("IOS")]))
        #expect(events[1].kind == .mark(label: "session_start"))
        #expect(events[1].meta == ["ga_session_id": .number("1795168800"), "ga_session_number": .number("3")])
        #expect(events[2].kind == .stackSet(stack: "main", path: [RouteValue(type: "Home", data: .object([
            "class": .string("HomeViewController"), "screenID": .number("-6150727126427424547")]))]))
        #expect(events[2].t.rfc3339 == "2026-11-20T10:00:01.250Z")
        // No firebase_screen: the class names the screen.
        #expect(events[3].kind == .stackSet(stack: "main", path: [RouteValue(type: "RecipeViewController", data: .object([
            "class": .string("RecipeViewController"), "screenID": .number("2")]))]))
        #expect(events[4].kind == .mark(label: "purchase"))
        #expect(events[4].meta == ["value": .number("12.99"), "currency": .string("EUR"), "ga_session_id": .number("1795168800")])
        // No ga_session_id: the user's records 31.5 minutes apart are two sessions.
        #expect(events[5].kind == .sessionStart(app: ["id": .string("com.example.recipes"), "version": .string("3.2.0")],
                                                device: ["category": .string("tablet"), "operating_system": .string("Android"), "platform": .string("ANDROID")]))
        let folded = foldBySession(events)
        #expect(folded["A1B2C3:1795168800"]!.views.map(\.screen) == ["Home", "RecipeViewController"])
        #expect(folded["D4E5F6:1795170700"]!.views.map(\.screen) == ["Home"])
    }

    /// navlog → GA4 export → import: every session's screens (runs of the
    /// same screen collapsed) and marks, and its app version.
    @Test func generatedSessionsRoundTrip() throws {
        let generator = SampleGenerator(SampleGenerator.Options(sessions: 40, seed: 5, interleave: true, liveSessions: 8))
        var writer = FlatExportWriter()
        var converter = GA4Converter()
        var imported: [Event] = []
        var original: [Event] = []
        var number = 0
        for event in generator.events() {
            original.append(event)
            for record in writer.ga4Records(for: event) {
                number += 1
                try converter.convert(record, record: number, into: &imported)
            }
        }
        converter.finish(into: &imported)
        let before = foldBySession(original)
        let after = foldBySession(imported)
        #expect(after.count == before.count)
        for (id, source) in before {
            let start = generator.session(at: Int(id.dropFirst(2))! - 1).start
            guard let copy = after["u-\(id):\(start.milliseconds / 1000)"] else {
                Issue.record("session \(id) was not imported")
                continue
            }
            #expect(copy.views.map(\.screen) == collapsed(source.views.map(\.screen)), "\(id)")
            #expect(copy.marks.filter { $0 != "session_start" } == source.marks, "\(id)")
            #expect(copy.views.map(\.t) == collapsedTimes(source.views), "\(id)")
        }
    }

    /// Times of the views that survive collapsing.
    func collapsedTimes(_ views: [ScreenView]) -> [Timestamp] {
        var out: [Timestamp] = []
        var last: String?
        for v in views where v.screen != last { out.append(v.t); last = v.screen }
        return out
    }

    @Test func sessionsAreForgottenAfterTheGapSoMemoryIsBounded() throws {
        var converter = GA4Converter()
        var events: [Event] = []
        // 20,000 users, one record each, a minute apart: only the last hour stays open.
        for i in 0..<20_000 {
            let line = #"{"event_timestamp":\#(1_795_168_800_000_000 + Int64(i) * 60_000_000),"event_name":"open","user_pseudo_id":"u\#(i)"}"#
            try converter.convert(line, record: i + 1, into: &events)
        }
        #expect(converter.openSessions <= 60 + 4096)
        #expect(converter.openSessions < 20_000)
        #expect(events.count == 40_000)
    }

    @Test(arguments: [
        (#"{"event_name":"x","user_pseudo_id":"u"}"#, #"missing required field "event_timestamp""#),
        (#"{"event_timestamp":1.5,"event_name":"x","user_pseudo_id":"u"}"#, #"field "event_timestamp": expected integer (or a string of digits), found number"#),
        (#"{"event_timestamp":"99999999999999999999","event_name":"x","user_pseudo_id":"u"}"#, #"field "event_timestamp": expected integer (or a string of digits), found string"#),
        (#"{"event_timestamp":"253402300800000000","event_name":"x","user_pseudo_id":"u"}"#, #"field "event_timestamp": 253402300800000000 µs is outside years 0000–9999"#),
        (#"{"event_timestamp":"1","user_pseudo_id":"u"}"#, #"missing required field "event_name""#),
        (#"{"event_timestamp":"1","event_name":"x"}"#, #"missing required field "user_pseudo_id""#),
        (#"{"event_timestamp":"1","event_name":"screen_view","user_pseudo_id":"u","event_params":[]}"#, #"missing required field "event_params.firebase_screen""#),
        (#"{"event_timestamp":"1","event_name":"x","user_pseudo_id":"u","event_params":{}}"#, #"field "event_params": expected array, found object"#),
        (#"{"event_timestamp":"1","event_name":"x","user_pseudo_id":"u","event_params":[{"value":{}}]}"#, #"missing required field "event_params[0].key""#),
        (#"{"event_timestamp":"1","event_name":"x","user_pseudo_id":"u","event_params":[{"key":"a","value":{"int_value":"x"}},{"key":"b"}]}"#, #"field "event_params[0].value.int_value": expected integer (or a string of digits), found string"#),
        (#"{"event_timestamp":"1","event_name":"x","user_pseudo_id":"u","event_params":[{"key":"a"},{"key":"a"}]}"#, #"field "event_params[1].key": parameter "a" given twice"#),
        (#"{"event_timestamp":"1","event_name":"x","user_pseudo_id":"u","event_params":[{"key":"ga_session_id","value":{"string_value":"abc"}}]}"#, #"field "event_params.ga_session_id": expected int_value, found string"#),
        (#"{"event_timestamp":"1","event_name":"screen_view","user_pseudo_id":"u","event_params":[{"key":"firebase_screen","value":{"int_value":"3"}}]}"#, #"field "event_params.firebase_screen": expected string_value, found number"#),
        (#"{"event_timestamp":"1","event_name":"x","user_pseudo_id":"u","device":"phone"}"#, #"field "device": expected object, found string"#),
        (#"{"event_timestamp":"1""#, "invalid JSON at byte 22: unexpected end of line, expected ',' or '}'"),
    ])
    func malformedRecordsAreRejected(line: String, reason: String) {
        var converter = GA4Converter()
        let (events, rejected) = convertLines(&converter, [line])
        #expect(events.isEmpty)
        #expect(rejected.map(\.reason.description) == [reason])
    }
}
