import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog import csv`: event-stream CSV (Amplitude, Mixpanel, retention tables).
struct ImportCSVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "csv",
        abstract: "Import CSV event streams (a header line, one event a row).",
        discussion: """
            RFC 4180: quoted fields may hold commas, quotes and line breaks; CRLF or LF. Rows \
            whose event matches --screens are screen views (a stack.set of stack main: the \
            visible screen was replaced), named by --screen-name's column or else the event; \
            the other rows are marks. Other columns go into meta. Times: RFC 3339, \
            'YYYY-MM-DD HH:MM:SS[.fff]' (UTC), or integers in --epoch units.

            Example:
              navlog import csv amplitude.csv --store logs --session user_id,session_id \\
                  --time event_time --event event_type \\
                  --screens '[Amplitude] Screen Viewed' --screen-name screen
            """
    )

    @OptionGroup var options: StoreWriteOptions

    @Option(help: ArgumentHelp("The column(s) naming the session, comma-separated (joined with ':').", valueName: "col"))
    var session: String

    @Option(help: ArgumentHelp("The column of the event's time.", valueName: "col"))
    var time: String

    @Option(help: ArgumentHelp("The column of the event's name.", valueName: "col"))
    var event: String

    @Option(help: ArgumentHelp("Events matching this glob are screen views (* matches anything).", valueName: "glob"))
    var screens: String?

    @Option(name: .customLong("screen-name"), help: ArgumentHelp("The column naming the screen of a screen view.", valueName: "col"))
    var screenName: String?

    @Option(help: ArgumentHelp("The unit of integer times.", valueName: "unit"))
    var epoch: CSVEventConverter.EpochUnit = .ms

    func validate() throws {
        if session.split(separator: ",").isEmpty { throw ValidationError("--session names at least one column") }
    }

    func run() throws {
        let converter = CSVEventConverter(
            columns: CSVEventConverter.Columns(session: session.split(separator: ",").map(String.init), time: time, event: event,
                                               screenName: screenName),
            screens: screens.map(GlobPattern.init), epochUnit: epoch)
        try options.run { (importer, onHeader, onReject, onProgress) throws(StoreImporter.Failure) in
            try importer.importCSV(paths: options.inputs, converter: converter, onHeader: onHeader, onReject: onReject, onProgress: onProgress)
        }
    }
}
