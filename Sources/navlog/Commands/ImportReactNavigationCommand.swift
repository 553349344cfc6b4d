import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog import react-navigation`: React Navigation state snapshots.
struct ImportReactNavigationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "react-navigation",
        abstract: "Import NDJSON of React Navigation state snapshots ({t, session, state}).",
        discussion: """
            Consecutive snapshots of a session become the events between them: tab selections, \
            pushes, pops, sets, presented and dismissed screens. t is RFC 3339 or Unix \
            milliseconds; state is a NavigationState (navigation.getRootState()).

            Example:
              navlog import react-navigation snapshots.ndjson --store logs
            """
    )

    @OptionGroup var options: StoreWriteOptions

    func run() throws {
        var converter = ReactNavigationConverter()
        try options.run { (importer, _, onReject, onProgress) throws(StoreImporter.Failure) in
            try importer.importLines(paths: options.inputs, converter: &converter, onReject: onReject, onProgress: onProgress)
        }
    }
}
