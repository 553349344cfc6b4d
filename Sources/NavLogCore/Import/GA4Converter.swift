/// `navlog import ga4`: the newline-delimited JSON that BigQuery writes for a
/// GA4 / Firebase Analytics `events_*` table, into navlog sessions
/// (schemas/imports.md, "ga4").
///
/// - Sessions: `user_pseudo_id` (else `user_id`) and the `ga_session_id`
///   parameter give session `USER:GA_SESSION_ID`. A record without
///   `ga_session_id` joins its user's open session when within ``gap`` (30
///   minutes) of that session's latest record, else opens `USER:SECONDS` (its
///   Unix seconds, the way GA numbers sessions).
/// - A session's first record is preceded by `session.start` with `app`
///   (`app_info`) and `device` (`device` plus `platform`).
/// - `screen_view` becomes `stack.set` of stack `main` with one value whose
///   `type` is `firebase_screen` (else `firebase_screen_class`): the visible
///   screen was replaced. Every other event is a `mark` labelled with its
///   `event_name`. The parameters go into `meta`.
///
/// Memory is bounded by the sessions open at once, not the input: exports are
/// ordered by time only roughly, so a session is forgotten once the latest
/// time seen is more than ``gap`` + ``lateness`` past its own latest record.
/// A record of a forgotten session opens it again (with a new `session.start`).
public struct GA4Converter: ImportConverter {
    /// The inactivity that ends a session without `ga_session_id`.
    public var gap: Int64
    /// How far out of time order records may arrive before their session is forgotten.
    public var lateness: Int64

    private struct OpenSession { var id: String; var latest: Int64 }
    /// Open sessions by id (`ga_session_id` ones) …
    private var open: [SessionID: Int64] = [:]
    /// … and each user's open gap-delimited session.
    private var openByUser: [SessionID: OpenSession] = [:]
    private var watermark = Int64.min
    private var sinceSweep = 0

    /// 30 minutes, in milliseconds.
    public static let defaultGap: Int64 = 30 * 60 * 1000

    public init(gap: Int64 = GA4Converter.defaultGap, lateness: Int64 = GA4Converter.defaultGap) {
        self.gap = gap
        self.lateness = lateness
    }

    /// Sessions currently held in memory.
    public var openSessions: Int { open.count + openByUser.count }

    public mutating func convert(_ record: UnsafeRawBufferPointer, record number: Int, into events: inout [Event]) throws(EventParseError) {
        let r = try GA4Record(try JSONValue.parse(record))
        let ms = r.t.milliseconds
        let session: String
        var isNew = false
        if let ga = r.gaSessionID {
            session = r.user + ":" + String(ga)
            let key = SessionID(session)
            if open.updateValue(max(ms, open[key] ?? ms), forKey: key) == nil { isNew = true }
        } else if var current = openByUser[SessionID(r.user)], abs(ms - current.latest) <= gap {
            session = current.id
            current.latest = max(current.latest, ms)
            openByUser[SessionID(r.user)] = current
        } else {
            let (q, rem) = ms.quotientAndRemainder(dividingBy: 1000)
            session = r.user + ":" + String(rem < 0 ? q - 1 : q)
            openByUser[SessionID(r.user)] = OpenSession(id: session, latest: ms)
            isNew = true
        }
        if isNew {
            events.append(Event(session: session, t: r.t, kind: .sessionStart(app: r.app, device: r.device)))
        }
        events.append(Event(session: session, t: r.t, kind: r.kind, meta: r.params.isEmpty ? nil : r.params))
        if ms > watermark { watermark = ms }
        sinceSweep += 1
        if sinceSweep >= 4096 { sweep() }
    }

    public mutating func finish(into events: inout [Event]) {
        open.removeAll()
        openByUser.removeAll()
    }

    /// Forgets sessions whose latest record is past the gap and lateness.
    private mutating func sweep() {
        sinceSweep = 0
        let horizon = watermark - gap - lateness
        open = open.filter { $0.value >= horizon }
        openByUser = openByUser.filter { $0.value.latest >= horizon }
    }
}

/// One GA4 export record, checked and reduced to what navlog keeps.
struct GA4Record {
    var t: Timestamp
    var user: String
    var gaSessionID: Int64?
    var kind: EventKind
    var params: [String: JSONValue]
    var app: [String: JSONValue]?
    var device: [String: JSONValue]?

    init(_ json: JSONValue) throws(EventParseError) {
        let f = try ImportFields(json, path: "")
        guard let micros = try f.int64("event_timestamp") else { throw .missingField(field: "event_timestamp") }
        guard let t = Timestamp(microseconds: micros) else {
            throw .invalidValue(field: "event_timestamp", reason: "\(micros) µs is outside years 0000–9999")
        }
        self.t = t
        let name = try f.requiredString("event_name")
        let pseudo = try f.string("user_pseudo_id")
        let userID = try f.string("user_id")
        guard let user = pseudo ?? userID, !user.isEmpty else {
            throw .missingField(field: "user_pseudo_id")
        }
        self.user = user
        params = [:]
        for (k, item) in (try f.array("event_params") ?? []).enumerated() {
            let p = try ImportFields(item, path: "event_params[\(k)]")
            let key = try p.requiredString("key")
            let value = try Self.paramValue(p.object("value"))
            guard params.updateValue(value, forKey: key) == nil else {
                throw .invalidValue(field: "event_params[\(k)].key", reason: "parameter \"\(key)\" given twice")
            }
        }
        if let ga = params["ga_session_id"], ga != .null {
            guard let n = ga.int64Value else {
                throw .wrongType(field: "event_params.ga_session_id", expected: "int_value", found: ga.typeName)
            }
            gaSessionID = n
        }
        if name == "screen_view" {
            let params = self.params
            func text(_ key: String) throws(EventParseError) -> String? {
                guard let v = params[key], v != .null else { return nil }
                guard case .string(let s) = v else {
                    throw .wrongType(field: "event_params.\(key)", expected: "string_value", found: v.typeName)
                }
                return s.isEmpty ? nil : s
            }
            let screen = try text("firebase_screen")
            let screenClass = try text("firebase_screen_class")
            guard let type = screen ?? screenClass else {
                throw .missingField(field: "event_params.firebase_screen")
            }
            var data: [String: JSONValue] = [:]
            if let screenClass { data["class"] = .string(screenClass) }
            if let id = self.params["firebase_screen_id"], id != .null {
                guard let n = id.int64Value else {
                    throw .wrongType(field: "event_params.firebase_screen_id", expected: "int_value", found: id.typeName)
                }
                data["screenID"] = .number(String(n))
            }
            kind = .stackSet(stack: "main", path: [RouteValue(type: type, data: data.isEmpty ? nil : .object(data))])
        } else {
            kind = .mark(label: name)
        }
        app = try f.object("app_info").map { $0.members.filter { $0.value != .null } }
        var device = try f.object("device").map { $0.members.filter { $0.value != .null } }
        if let platform = try f.string("platform") { device = (device ?? [:]).merging(["platform": .string(platform)]) { a, _ in a } }
        self.device = device
    }

    /// The one non-null member of a parameter's `value`
    /// (`string_value`, `int_value`, `float_value`, `double_value`).
    static func paramValue(_ value: ImportFields?) throws(EventParseError) -> JSONValue {
        guard let value else { return .null }
        if let s = try value.string("string_value") { return .string(s) }
        if let n = try value.int64("int_value") { return .number(String(n)) }
        for key in ["double_value", "float_value"] {
            guard let v = value[key] else { continue }
            switch v {
            case .number: return v
            case .string(let s) where (try? JSONValue.parse(s))?.typeName == "number": return .number(s)
            default: throw .wrongType(field: value.name(key), expected: "number", found: v.typeName)
            }
        }
        return .null
    }
}
