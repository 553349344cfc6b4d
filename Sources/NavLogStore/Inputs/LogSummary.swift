import NavLogCore

/// What `navlog info LOG` says about a log, read from its index alone: the
/// one value its text (`key: value` lines) and its JSON
/// (`schemas/info.schema.json`) are both made from.
public struct LogSummary: Sendable {
    public let file: String
    public let formatMajor: UInt16
    public let formatMinor: UInt16
    public let session: String?
    public let events: Int
    public let firstSeq: Int?
    public let lastSeq: Int?
    /// The earliest and the latest `t`, in milliseconds.
    public let minT: Int64?
    public let maxT: Int64?
    public let fileBytes: Int64
    public let contentBytes: Int
    public let blocks: Int
    public let checkpoints: Int
    /// Whether the index came from the footer (a closed log), not a walk of the frames.
    public let indexFromFooter: Bool
    /// What the reader left out at the end, if anything.
    public let tail: LogDamage?

    public init(file: String, reader: LogReader) {
        self.file = file
        formatMajor = reader.header.majorVersion
        formatMinor = reader.header.minorVersion
        session = (try? reader.session()) ?? nil
        events = reader.eventCount
        firstSeq = reader.firstSeq
        lastSeq = reader.lastSeq
        let blocks = reader.blocks
        var minT = blocks.map(\.minT).min()
        var maxT = blocks.last?.runningMaxT
        if let tail = reader.tailRange {
            minT = min(minT ?? tail.lowerBound, tail.lowerBound)
            maxT = max(maxT ?? tail.upperBound, tail.upperBound)
        }
        self.minT = minT
        self.maxT = maxT
        fileBytes = reader.fileSize
        contentBytes = blocks.reduce(0) { $0 + $1.contentSize } + reader.tailContentBytes
        self.blocks = blocks.count
        checkpoints = reader.checkpoints.count
        indexFromFooter = reader.indexSource == .footer
        tail = reader.damage
    }

    /// Content bytes per file byte with 2 decimals (`3.21`), or `nil` when there is no content.
    public var compression: String? {
        guard contentBytes > 0 else { return nil }
        let ratio = fileBytes > 0 ? Double(contentBytes) / Double(fileBytes) : 0
        let hundredths = Int((ratio * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// The text form: `key: value` lines, values aligned.
    public var lines: [(String, String)] {
        var lines: [(String, String)] = []
        lines.append(("file", file))
        lines.append(("format", "\(formatMajor).\(formatMinor)"))
        lines.append(("session", session.map(ReadableText.name) ?? "-"))
        lines.append(("events", String(events)))
        lines.append(("seq", InfoRange.seq(firstSeq, lastSeq)))
        lines.append(("time", InfoRange.time(minT, maxT)))
        lines.append(("file bytes", String(fileBytes)))
        lines.append(("content bytes", String(contentBytes)))
        lines.append(("compression", compression.map { $0 + "×" } ?? "-"))
        lines.append(("blocks", String(blocks)))
        lines.append(("checkpoints", String(checkpoints)))
        lines.append(("index", indexFromFooter ? "footer (closed)" : "walked (not closed)"))
        if let tail { lines.append(("tail", tail.description)) }
        return lines
    }

    /// The JSON form (`schemas/info.schema.json`).
    public var jsonValue: JSONValue {
        .object([
            "file": .string(file),
            "format": .object(["major": .integer(formatMajor), "minor": .integer(formatMinor)]),
            "session": session.map(JSONValue.string) ?? .null,
            "events": .integer(events),
            "firstSeq": .integer(firstSeq),
            "lastSeq": .integer(lastSeq),
            "minT": InfoRange.json(minT),
            "maxT": InfoRange.json(maxT),
            "fileBytes": .integer(fileBytes),
            "contentBytes": .integer(contentBytes),
            "compression": compression.map(JSONValue.number) ?? .null,
            "blocks": .integer(blocks),
            "checkpoints": .integer(checkpoints),
            "index": .string(indexFromFooter ? "footer" : "walked"),
            "tail": tail?.jsonValue ?? .null,
        ])
    }
}

/// What `navlog info STORE --session ID` says about a session of a segment
/// store: its text (`key: value` lines) and its JSON
/// (`schemas/info.schema.json`, the store form) are both made from it.
public struct StoredSessionSummary: Sendable {
    public let store: String
    public let session: String
    public let figures: StoredSession.Summary

    public init(store: String, session: String, figures: StoredSession.Summary) {
        self.store = store
        self.session = session
        self.figures = figures
    }

    /// The text form: `key: value` lines.
    public var lines: [(String, String)] {
        let s = figures
        return [
            ("store", store),
            ("session", ReadableText.name(session)),
            ("events", String(s.events)),
            ("seq", InfoRange.seq(s.firstSeq, s.lastSeq)),
            ("time", InfoRange.time(s.minT, s.maxT)),
            ("content bytes", String(s.contentBytes)),
            ("commits", String(s.commits)),
            ("checkpoints", String(s.checkpoints)),
        ]
    }

    /// The JSON form.
    public var jsonValue: JSONValue {
        let s = figures
        return .object([
            "store": .string(store), "session": .string(session), "events": .integer(s.events),
            "firstSeq": .integer(s.firstSeq), "lastSeq": .integer(s.lastSeq),
            "minT": InfoRange.json(s.minT), "maxT": InfoRange.json(s.maxT),
            "contentBytes": .integer(s.contentBytes), "commits": .integer(s.commits), "checkpoints": .integer(s.checkpoints),
        ])
    }
}

/// How `info` shows a session's seq and time ranges, a log's and a stored session's alike.
private enum InfoRange {
    /// `first…last`, or `-` when there are none.
    static func seq(_ first: Int?, _ last: Int?) -> String { first.map { "\($0)…\(last!)" } ?? "-" }

    /// `min … max` in RFC 3339, or `-` when there are none.
    static func time(_ min: Int64?, _ max: Int64?) -> String {
        guard let min, let max else { return "-" }
        return "\(Timestamp(milliseconds: min).rfc3339) … \(Timestamp(milliseconds: max).rfc3339)"
    }

    /// A time in milliseconds as a JSON RFC 3339 string, or `null`.
    static func json(_ ms: Int64?) -> JSONValue { ms.map { .string(Timestamp(milliseconds: $0).rfc3339) } ?? .null }
}
