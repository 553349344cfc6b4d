/// Renders navlog sessions as the flat exports analytics tools produce — a
/// GA4 BigQuery export (NDJSON) or a CSV event stream — from their screen
/// views and marks: what `navlog import ga4` and `navlog import csv` read
/// back (schemas/imports.md). Used for round-trip tests and benchmarks.
///
/// ```swift
/// var writer = FlatExportWriter()
/// for event in SampleGenerator(.init(sessions: 10)).events() {
///     for line in writer.ga4Records(for: event) { print(line) }
/// }
/// ```
///
/// Each session's events must come in its own order (sessions may
/// interleave). A session's projection is kept until its `session.end`.
/// Every scene's screen views go into one flat stream, as an analytics SDK
/// records them.
public struct FlatExportWriter {
    private struct Open { var state: NavigationState; var start: Timestamp; var app: [String: JSONValue]? }
    private var open: [SessionID: Open] = [:]
    private var views: [ScreenView] = []
    private var writer = CanonicalWriter(capacity: 1024)

    /// The CSV header of ``csvRows(for:)``.
    public static let csvHeader = "user_id,session_id,event,timestamp,screen,platform,app_version"

    public init() {}

    /// What an event shows in a flat stream: the screens it changed to and its mark.
    private mutating func flat(_ event: Event) -> (Open, screens: [String], mark: String?, meta: [String: JSONValue]?) {
        let key = SessionID(event.session)
        var session = open[key] ?? Open(state: NavigationState(session: event.session), start: event.t, app: nil)
        if case .sessionStart(let app, _) = event.kind, session.app == nil { session.app = app }
        views.removeAll(keepingCapacity: true)
        session.state.apply(event, screenViews: &views)
        if case .sessionEnd = event.kind { open.removeValue(forKey: key) } else { open[key] = session }
        var mark: String?
        if case .mark(let label) = event.kind { mark = label }
        return (session, views.map(\.screen), mark, event.meta)
    }

    /// GA4 export records (one JSON object a line) for one event: a
    /// `screen_view` per screen it changed to, an event named after a mark's label.
    public mutating func ga4Records(for event: Event) -> [String] {
        let (session, screens, mark, meta) = flat(event)
        var out: [String] = []
        let micros = JSONValue.string(String(event.t.milliseconds * 1000))
        let gaSession = JSONValue.object(["int_value": .string(String(session.start.milliseconds / 1000))])
        var app: [String: JSONValue] = ["id": .string("com.example.recipes"), "install_store": .null, "firebase_app_id": .string("1:1234567890:ios:abc")]
        if case .string(let v)? = session.app?["version"] { app["version"] = .string(v) }
        let common: [String: JSONValue] = [
            "event_date": .string(String(event.t.rfc3339.prefix(10).filter { $0 != "-" })),
            "event_timestamp": micros,
            "user_pseudo_id": .string("u-" + event.session),
            "app_info": .object(app),
            "platform": .string("IOS"),
            "device": .object(["category": .string("mobile"), "operating_system": .string("iOS"),
                               "operating_system_version": .string("iOS 18.1"), "mobile_brand_name": .string("Apple"),
                               "language": .string("en-us"), "is_limited_ad_tracking": .string("No")]),
            "geo": .object(["country": .string("Netherlands"), "city": .string("Amsterdam"), "continent": .string("Europe")]),
            "event_bundle_sequence_id": .string("1"),
        ]
        func record(_ name: String, _ params: [(String, JSONValue)]) -> String {
            var members = common
            members["event_name"] = .string(name)
            var list = params.map { (key, value) -> JSONValue in
                .object(["key": .string(key), "value": value])
            }
            list.append(.object(["key": .string("ga_session_id"), "value": gaSession]))
            list.append(.object(["key": .string("engagement_time_msec"), "value": .object(["int_value": .string("1200")])]))
            members["event_params"] = .array(list)
            writer.reset()
            writer.write(.object(members))
            return writer.string
        }
        for screen in screens {
            var id: Int64 = 1469598103934665603
            for b in screen.utf8 { id = (id ^ Int64(b)) &* 1099511628211 }
            out.append(record("screen_view", [
                ("firebase_screen", .object(["string_value": .string(screen)])),
                ("firebase_screen_class", .object(["string_value": .string("UIHostingController")])),
                ("firebase_screen_id", .object(["int_value": .string(String(id))])),
            ]))
        }
        if let mark {
            var params: [(String, JSONValue)] = []
            for (k, v) in (meta ?? [:]).sorted(by: { utf8Less($0.key, $1.key) }) {
                if case .string(let s) = v { params.append((k, .object(["string_value": .string(s)]))) }
            }
            out.append(record(mark, params))
        }
        return out
    }

    /// CSV rows (``csvHeader`` columns) for one event: `screen_view` rows
    /// with the screen, and a row named after a mark's label.
    public mutating func csvRows(for event: Event) -> [String] {
        let (session, screens, mark, _) = flat(event)
        var version = ""
        if case .string(let v)? = session.app?["version"] { version = v }
        let prefix = CSVWriter.field("u-" + event.session) + "," + String(session.start.milliseconds) + ","
        var time = event.t.rfc3339
        time = String(time.prefix(10)) + " " + String(time.dropFirst(11).dropLast())   // 2026-11-20 10:00:05.120
        let suffix = ",IOS," + CSVWriter.field(version)
        var out = screens.map { prefix + "screen_view," + time + "," + CSVWriter.field($0) + suffix }
        if let mark { out.append(prefix + CSVWriter.field(mark) + "," + time + "," + suffix) }
        return out
    }
}
