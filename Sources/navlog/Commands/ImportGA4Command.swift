import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog import ga4`: a GA4 / Firebase Analytics BigQuery export.
struct ImportGA4Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ga4",
        abstract: "Import the NDJSON of a GA4 / Firebase BigQuery events_* export.",
        discussion: """
            Sessions are USER:GA_SESSION_ID (user_pseudo_id, else user_id); without \
            ga_session_id, a user's records more than --gap apart start a new session. \
            screen_view becomes a stack.set of stack main (the visible screen was replaced), \
            every other event a mark; app_info, device and platform go into session.start.

            Example:
              bq extract --destination_format NEWLINE_DELIMITED_JSON \\
                  'proj:analytics_1.events_20261120' gs://b/ev.json
              navlog import ga4 ev.json --store logs
            """
    )

    @OptionGroup var options: StoreWriteOptions

    @Option(help: ArgumentHelp("Inactivity that ends a session without ga_session_id, in minutes.", valueName: "minutes"))
    var gap: Int = 30

    func validate() throws {
        if gap < 1 { throw ValidationError("--gap must be at least 1 minute") }
    }

    func run() throws {
        var converter = GA4Converter(gap: Int64(gap) * 60_000, lateness: Int64(gap) * 60_000)
        try options.run { (importer, _, onReject, onProgress) throws(StoreImporter.Failure) in
            try importer.importLines(paths: options.inputs, converter: &converter, onReject: onReject, onProgress: onProgress)
        }
    }
}
