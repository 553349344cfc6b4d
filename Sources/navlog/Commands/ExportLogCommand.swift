#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog export log STORE --session ID -o FILE`: one session of a store
/// written as its own `.navlog` log.
struct ExportLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Write one session of a store as a single-session .navlog log.",
        discussion: """
            The log holds the session's events as the store does, in seq order: `navlog cat \
            FILE` prints what `navlog cat STORE --session ID` prints, and `navlog verify FILE` \
            passes. FILE must not exist yet, and may not be inside the store.

            Example:
              navlog export log store/ --session s-000042 -o s-000042.navlog
            """
    )

    @Argument(help: "The store (a segment store, or a directory of .navlog files).", completion: .directory)
    var store: String

    @Option(name: .long, help: ArgumentHelp("Which session of the store.", valueName: "id"))
    var session: String?

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp("The log to write (new).", valueName: "file"), completion: .file())
    var output: String

    func run() throws {
        guard InputKind.of(store).isDirectory else { throw CLIFailure.trouble("\(InputName.shown(store)): not a store (a directory)") }
        try InputOutputChecks.refuseOverwriting(output, option: "-o", inputs: [], store: store)
        if FileSystem.exists(output) { throw CLIFailure.trouble("-o \(output): exists; name a new file") }
        let opened = try OneSession.opened(store, session: session, form: .logOrStore)
        let writer: LogWriter
        do { writer = try LogWriter(path: output) } catch { throw CLIFailure(error) }
        do {
            try opened.write(to: writer)
            try writer.close()
        } catch {
            try? FileSystem.remove(output)
            if let failure = error as? OneSessionError { throw CLIFailure(failure) }
            if let failure = error as? FileError { throw CLIFailure(failure) }
            throw error
        }
        Output.flushStandardOutput()
    }
}
