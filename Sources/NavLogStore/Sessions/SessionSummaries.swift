import NavLogCore

/// One session as `navlog sessions` lists it.
public struct SessionSummary: Hashable, Sendable {
    public var id: String
    public var events = 0
    /// `t` of its first and last events.
    public var first = Timestamp(milliseconds: 0)
    public var last = Timestamp(milliseconds: 0)
    /// `app.version` of its first `session.start` (when a string), else `nil`.
    public var appVersion: String?

    public init(id: String) { self.id = id }

    /// Counts the next event of the session.
    mutating func add(t: Timestamp) {
        if events == 0 { first = t }
        last = t
        events += 1
    }
}

extension SessionStream {
    /// Calls `body` with each session of a store's `source`, complete: a
    /// log is one session (every event parsed); a segment store part's
    /// sessions come one after another in session-key order, their lines
    /// summarized without being parsed but for a `session.start`.
    public func forEachSummary(in source: SessionSource, _ body: (SessionSummary) -> Void) throws(SessionStreamError) {
        switch source {
        case .log, .ndjson:
            var sessions: [SessionID: Int] = [:]
            var summaries: [SessionSummary] = []
            var startSeen: [Bool] = []
            try forEachEvent(in: source) { event in
                let i = sessions[SessionID(event.session)] ?? {
                    summaries.append(SessionSummary(id: event.session))
                    startSeen.append(false)
                    sessions[SessionID(event.session)] = summaries.count - 1
                    return summaries.count - 1
                }()
                summaries[i].add(t: event.t)
                if !startSeen[i], case .sessionStart(let app, _) = event.kind {
                    summaries[i].appVersion = Self.version(app)
                    startSeen[i] = true
                }
            }
            summaries.forEach(body)
        case .segments(let part):
            let scan = try SegmentPartScan(part)
            var parser = EventLineParser()
            var current: SessionSummary?
            var startSeen = false
            try scan.forEachLine { (line, startsSession) throws(SessionStreamError) in
                // A line the fast path summarizes is parsed whole only when it may be a first session.start.
                let summary = parser.summarize(line)
                var event: Event?
                if summary == nil {
                    do { event = try parser.parse(line) } catch { throw scan.corrupt("a line of the block is not an event: \(error)") }
                }
                if startsSession {
                    current.map(body)
                    current = SessionSummary(id: event?.session
                        ?? String(decoding: UnsafeRawBufferPointer(rebasing: line[summary!.session]), as: UTF8.self))
                    startSeen = false
                }
                current!.add(t: event?.t ?? summary!.t)
                if !startSeen, event != nil || Self.mayBeSessionStart(line),
                   case .sessionStart(let app, _)? = (event ?? (try? parser.parse(line)))?.kind {
                    current!.appVersion = Self.version(app)
                    startSeen = true
                }
            }
            current.map(body)
        }
    }

    private static func version(_ app: [String: JSONValue]?) -> String? {
        if case .string(let version)? = app?["version"] { return version }
        return nil
    }

    /// Whether the line holds the bytes `"session.start"` (only such a line is parsed whole).
    private static func mayBeSessionStart(_ line: UnsafeRawBufferPointer) -> Bool {
        let needle: StaticString = "\"session.start\""
        let n = needle.utf8CodeUnitCount
        guard line.count >= n else { return false }
        return needle.withUTF8Buffer { needle in
            var i = 0
            while i + n <= line.count {
                if line[i] == needle[0], line[i + 1] == needle[1], line[i + 8] == needle[8],
                   UnsafeRawBufferPointer(rebasing: line[i..<(i + n)]).elementsEqual(needle) { return true }
                i += 1
            }
            return false
        }
    }
}
