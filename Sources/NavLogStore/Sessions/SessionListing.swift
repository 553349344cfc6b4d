import NavLogCore

/// Which sessions a listing keeps (`navlog sessions`, `GET /v1/sessions`):
/// an id glob, an `app.version` glob, and a time range that the session's
/// events must reach into.
public struct SessionFilter: Sendable {
    public var id: GlobPattern?
    public var appVersion: GlobPattern?
    public var since: Timestamp?
    public var until: Timestamp?

    public init(id: GlobPattern? = nil, appVersion: GlobPattern? = nil, since: Timestamp? = nil, until: Timestamp? = nil) {
        self.id = id
        self.appVersion = appVersion
        self.since = since
        self.until = until
    }

    public func keeps(_ s: SessionSummary) -> Bool {
        if let id, !id.matches(s.id) { return false }
        if let appVersion, !appVersion.matches(s.appVersion ?? "") { return false }
        if let since, s.last < since { return false }
        if let until, s.first > until { return false }
        return true
    }

    /// A time as the filters take it: RFC 3339, or an integer of milliseconds since 1970.
    public static func time(_ text: String) -> Timestamp? {
        if let ms = Int64(text) { return Timestamp(milliseconds: ms) }
        return Timestamp(rfc3339: text)
    }
}

/// The sessions of a store, summarized, filtered and sorted by id (UTF-8
/// bytes), as `navlog sessions` lists them.
public enum SessionListing {
    /// The sources of the store at `path`, a segment store or a version-1
    /// store (``SessionSource/resolve(_:)``), to list.
    ///
    /// - Throws: ``SessionStreamError/fileNotAStore(path:)`` when `path`
    ///   names a log or NDJSON; else as ``SessionSource/resolve(_:)``.
    public static func sources(ofStore path: String) throws(SessionStreamError) -> [SessionSource] {
        let sources = try SessionSource.resolve([path])
        if sources == [.log(path)] || sources == [.ndjson(path)] { throw .fileNotAStore(path: path) }
        return sources
    }

    /// Calls `body` with each session of `sources` that `filter` keeps, in
    /// id order; returns how many sessions there were before filtering.
    ///
    /// - Throws: ``SessionStreamError`` when a source cannot be read.
    @discardableResult
    public static func list(_ sources: [SessionSource], filter: SessionFilter,
                            _ body: (SessionSummary) -> Void) throws(SessionStreamError) -> Int {
        let sorter = SessionSummarySorter()
        let stream = SessionStream(sources: sources, workers: 1)
        var total = 0
        var failure: FileError?
        for source in sources {
            try stream.forEachSummary(in: source) { summary in
                total += 1
                guard failure == nil, filter.keeps(summary) else { return }
                do throws(FileError) { try sorter.add(summary) } catch { failure = error }
            }
        }
        if let failure { throw .log(failure) }
        do { while let summary = try sorter.next() { body(summary) } } catch { throw .log(error) }
        return total
    }
}

extension SessionSummary {
    /// One line of `navlog sessions --json` (schemas/sessions.schema.json), without its `\n`.
    public var jsonText: String {
        JSONValue.object([
            "session": .string(id), "events": .number(String(events)), "first": .string(first.rfc3339),
            "last": .string(last.rfc3339), "appVersion": appVersion.map(JSONValue.string) ?? .null,
        ]).canonicalText
    }
}
