import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog sessions STORE`: one row per session of a store (issue 25).
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List a store's sessions: id, events, first and last t, app.version.",
        discussion: """
            One row per session, sorted by id (byte order), read as it streams: memory stays \
            bounded for millions of sessions (beyond 100,000 rows, sorted runs go to \
            temporary files). Text is tab-separated with a header line: session, events, \
            first, last (RFC 3339), app.version (of the session's first session.start; \
            empty when none); control characters in a value are written as JSON writes \
            them (\\t, \\n, \\u001b), as in navlog's other readable outputs. --json prints one JSON object a line \
            (schemas/sessions.schema.json). Works on segment stores and on version-1 stores \
            (directories of .navlog files).

            --id and --app-version are globs (`*` matches any run of characters, as in \
            funnel steps). --since T keeps sessions with an event at or after T, --until T \
            those with an event at or before T; T is RFC 3339 or milliseconds since 1970.

            Examples:
              navlog sessions store/
              navlog sessions store/ --id 's-00001*' --app-version '2.*' --json
              navlog sessions store/ --since 2026-11-20T10:00:00Z --until 1795168800000
            """
    )

    @Argument(help: ArgumentHelp("A store: a segment store or a directory of .navlog files.", valueName: "store"), completion: .directory)
    var store: String

    @Option(help: ArgumentHelp("Only sessions whose id matches this glob.", valueName: "glob"))
    var id: String?

    @Option(help: ArgumentHelp("Only sessions whose app.version matches this glob.", valueName: "version"))
    var appVersion: String?

    @Option(help: ArgumentHelp("Only sessions with an event at or after this time (RFC 3339 or milliseconds).", valueName: "time"))
    var since: String?

    @Option(help: ArgumentHelp("Only sessions with an event at or before this time (RFC 3339 or milliseconds).", valueName: "time"))
    var until: String?

    @Flag(name: .long, help: "Print one JSON object a line (schemas/sessions.schema.json).")
    var json = false

    @Flag(name: .long, help: "Print only how many sessions match, and their events, as one JSON object.")
    var count = false

    func validate() throws {
        for (name, value) in [("--since", since), ("--until", until)] {
            if let value, Self.time(value) == nil {
                throw ValidationError("sessions: \(name) takes an RFC 3339 time or milliseconds since 1970: \(Timestamp.refusal(rfc3339: value))")
            }
        }
    }

    /// RFC 3339, or an integer of milliseconds since 1970.
    static func time(_ text: String) -> Timestamp? { SessionFilter.time(text) }

    func run() throws {
        let sources = try SessionListing.sources(ofStore: store)
        let filter = SessionFilter(id: id.map(GlobPattern.init), appVersion: appVersion.map(GlobPattern.init),
                                   since: since.flatMap(Self.time), until: until.flatMap(Self.time))
        if count {
            var counted = SessionCount()
            _ = try SessionListing.list(sources, filter: filter) { counted.add($0) }
            Output.line(counted.jsonText)
            return
        }
        if !json { Output.line("session\tevents\tfirst\tlast\tapp.version") }
        var shown = 0
        let total = try SessionListing.list(sources, filter: filter) { summary in
            shown += 1
            Output.line(json ? summary.jsonText : Self.text(summary))
        }
        Output.flushStandardOutput()
        if shown == 0 {
            Output.nothingMatched(total == 0 ? "sessions: \(store) holds no sessions" : "sessions: no session of \(total) matches the filters")
        }
    }

    static func text(_ s: SessionSummary) -> String {
        [s.id, String(s.events), s.first.rfc3339, s.last.rfc3339, s.appVersion ?? ""].map(ReadableText.escaped).joined(separator: "\t")
    }
}
