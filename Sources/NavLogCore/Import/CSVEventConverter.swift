// Import/: Other tools' exports (CSV event streams, GA4, React Navigation, SwiftUI paths) converted to events.

/// `navlog import csv`: rows of an event-stream export (Amplitude, Mixpanel,
/// retention-analysis tables: `user_id,session_id,event,timestamp,…`) into
/// navlog events (schemas/imports.md, "csv").
///
/// The first record is the header. Each later row is one event of the
/// session named by the session column(s) (several are joined with `:`):
/// - a row whose event matches the screens pattern is a screen view: a
///   `stack.set` of stack `main` to one value whose `type` is the screen name
///   (the screen-name column when given, else the event; never empty) — the
///   visible screen was replaced;
/// - any other row is a `mark` labelled with the event;
/// - the other columns' non-empty cells go into `meta`, keyed by header.
///
/// Times are RFC 3339, `YYYY-MM-DD HH:MM:SS[.fraction]` (read as UTC, the
/// form Amplitude writes), or an integer count of ``EpochUnit`` since the
/// Unix epoch.
public struct CSVEventConverter {
    /// The unit of integer times.
    public enum EpochUnit: String, Sendable, CaseIterable {
        case s, ms, us
    }

    /// The header was read, but a named column is missing or ambiguous.
    public struct HeaderError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// Which columns mean what.
    public struct Columns: Hashable, Sendable {
        public var session: [String]
        public var time: String
        public var event: String
        public var screenName: String?

        public init(session: [String], time: String, event: String, screenName: String? = nil) {
            self.session = session
            self.time = time
            self.event = event
            self.screenName = screenName
        }
    }

    public let columns: Columns
    /// Events matching this are screen views; `nil`: none are.
    public let screens: GlobPattern?
    public let epochUnit: EpochUnit

    private var header: [String]?
    private var sessionIndices: [Int] = []
    private var timeIndex = 0
    private var eventIndex = 0
    private var screenIndex: Int?
    /// The other columns, by index: their header name.
    private var metaColumns: [(Int, String)] = []

    public init(columns: Columns, screens: GlobPattern?, epochUnit: EpochUnit = .ms) {
        self.columns = columns
        self.screens = screens
        self.epochUnit = epochUnit
    }

    /// Whether the header has been read.
    public var hasHeader: Bool { header != nil }

    /// Reads the header record and finds the named columns.
    public mutating func readHeader(_ fields: [String]) throws(HeaderError) {
        func index(_ name: String) throws(HeaderError) -> Int {
            let found = fields.indices.filter { fields[$0] == name }
            guard let first = found.first else {
                throw HeaderError(description: "no column \"\(name)\" in the header (columns: \(fields.joined(separator: ",")))")
            }
            guard found.count == 1 else { throw HeaderError(description: "column \"\(name)\" appears \(found.count) times in the header") }
            return first
        }
        sessionIndices = []
        for name in columns.session { sessionIndices.append(try index(name)) }
        timeIndex = try index(columns.time)
        eventIndex = try index(columns.event)
        screenIndex = try columns.screenName.map { (name) throws(HeaderError) in try index(name) }
        let used = Set(sessionIndices + [timeIndex, eventIndex] + (screenIndex.map { [$0] } ?? []))
        var seen = Set<String>()
        metaColumns = []
        for (i, name) in fields.enumerated() where !used.contains(i) && seen.insert(name).inserted {
            metaColumns.append((i, name))
        }
        header = fields
    }

    /// Converts one data row into its event.
    public func convert(_ fields: [String]) throws(EventParseError) -> Event {
        guard let header else { throw .invalidValue(field: "(record)", reason: "no header read") }
        guard fields.count == header.count else {
            throw .invalidValue(field: "(record)", reason: "\(fields.count) fields, the header has \(header.count)")
        }
        let session = sessionIndices.map { fields[$0] }.joined(separator: ":")
        guard sessionIndices.contains(where: { !fields[$0].isEmpty }) else {
            throw .missingField(field: columns.session.joined(separator: ","))
        }
        let t = try time(fields[timeIndex])
        let event = fields[eventIndex]
        var meta: [String: JSONValue] = [:]
        for (i, name) in metaColumns where !fields[i].isEmpty { meta[name] = .string(fields[i]) }
        let kind: EventKind
        if let screens, screens.matches(event) {
            let name = screenIndex.map { fields[$0] } ?? event
            guard !name.isEmpty else {
                throw .invalidValue(field: columns.screenName ?? columns.event, reason: "empty screen name")
            }
            kind = .stackSet(stack: "main", path: [RouteValue(type: name)])
        } else {
            kind = .mark(label: event)
        }
        return Event(session: session, t: t, kind: kind, meta: meta.isEmpty ? nil : meta)
    }

    /// Reads a time cell.
    func time(_ text: String) throws(EventParseError) -> Timestamp {
        let field = columns.time
        if !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || (text.first == "-" && text.count > 1 && text.dropFirst().utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })) {
            guard let n = Int64(text) else { throw .invalidValue(field: field, reason: "\(text) is out of range") }
            let ms: Int64? = switch epochUnit {
            case .s: n.multipliedReportingOverflow(by: 1000).overflow ? nil : n * 1000
            case .ms: n
            case .us: n / 1000 - (n % 1000 < 0 ? 1 : 0)
            }
            guard let ms, let t = Timestamp(checkedMilliseconds: ms) else {
                throw .invalidValue(field: field, reason: "\(text) \(epochUnit.rawValue) is outside years 0000–9999")
            }
            return t
        }
        if let t = Timestamp(rfc3339: text) { return t }
        // `YYYY-MM-DD HH:MM:SS[.fraction]`, no offset: UTC.
        let bytes = Array(text.utf8)
        if bytes.count >= 19, bytes[10] == UInt8(ascii: " "), !text.hasSuffix("Z"), !bytes[19...].contains(UInt8(ascii: "+")),
           !bytes[19...].contains(UInt8(ascii: "-")), let t = Timestamp(rfc3339: String(text.prefix(10)) + "T" + text.dropFirst(11) + "Z") {
            return t
        }
        throw .invalidValue(field: field, reason: "not a time: \"\(text)\" (RFC 3339, YYYY-MM-DD HH:MM:SS in UTC, or integer \(epochUnit.rawValue))")
    }
}
