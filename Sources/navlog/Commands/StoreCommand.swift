import ArgumentParser
import NavLogStore

/// `navlog store …`: work on a store as a whole. A command group.
struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Work on a store as a whole (upgrade a version-1 store).",
        discussion: """
            Example:
              navlog store upgrade logs
            """,
        subcommands: [StoreUpgradeCommand.self]
    )
}

/// `navlog store upgrade DIR`: a version-1 store (one .navlog file per
/// session) converted into a segment store in place (schemas/segment-store.md §10).
struct StoreUpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Convert a version-1 store (one .navlog file per session) into a segment store, in place.",
        discussion: """
            DIR must be a version-1 store: nothing but logs named <slug>-<hash>.navlog (and the \
            .torn-<offset> and .damaged-<offset> side files of repairs); a folder of other files is not one and is \
            left alone. The new store is built beside DIR (in .DIR.navlog-upgrade) from every \
            log's events as they are, synced, verified, and then swapped in with two renames; \
            the old logs are kept, unchanged, in .DIR.navlog-v1, and nothing is deleted. Stopped at any point (Ctrl-C, a crash, power loss), the upgrade is \
            finished or started over by running the same command again; DIR is always either \
            the old store or the new one. A damaged log stops the upgrade with nothing changed \
            (exit 1): repair it with `navlog repair`, then run the upgrade again. Readers of \
            DIR see the old store until the swap. See docs/store.md.

            Example:
              navlog store upgrade logs
            """
    )

    @Argument(help: ArgumentHelp("The version-1 store's directory.", valueName: "dir"), completion: .directory)
    var directory: String

    func run() throws {
        let report: StoreUpgrade.Report
        do throws(StoreUpgrade.Failure) { report = try StoreUpgrade.upgrade(at: directory) } catch {
            if case .damaged = error { throw CLIFailure.no(error.description) }
            throw CLIFailure.trouble(error.description)
        }
        if report.finishedEarlierRun {
            Output.line("\(directory) is a segment store (an upgrade stopped earlier was finished)")
        } else {
            Output.line("upgraded \(directory): \(report.logs) log\(report.logs == 1 ? "" : "s"), \(report.events) event\(report.events == 1 ? "" : "s") "
                        + "of \(report.sessions) session\(report.sessions == 1 ? "" : "s") into a segment store")
        }
        if let kept = report.keptOldDirectory {
            Output.line("the version-1 logs are kept, unchanged, in \(kept) (remove it once the new store serves you)")
        }
    }
}
