import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog reindex STORE`: rebuilds a segment store's screen projection
/// (schemas/screen-projection.md §6).
struct ReindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Rebuild a segment store's screen projection (what funnel, paths and export screens read).",
        discussion: """
            Reads every session of the store once and writes, beside each segment NNNNNNNN.nls, \
            its screen projection NNNNNNNN.views: the screen views, marks and deep links of each \
            commit's sessions in a compact columnar form (schemas/screen-projection.md). funnel, \
            paths and export screens read it instead of the events when it covers every commit; \
            otherwise they read the events, with the same answers. A file that is missing, damaged \
            or out of date is rewritten; one that is right is kept. Takes the store's lock, as a \
            writer does. Prints one line.

            Examples:
              navlog reindex store/
              navlog verify store/      # checks the projection against the events too
            """
    )

    @Argument(help: ArgumentHelp("A segment store.", valueName: "store"), completion: .directory)
    var store: String

    func run() throws {
        let summary: ReindexSummary
        do { summary = try ScreenProjectionIndex.reindex(store: store) } catch {
            // A writer refuses a damaged store: trouble (exit 2), not an answer.
            throw error.isStoreDamage ? CLIFailure.trouble(error.description) : CLIFailure(error)
        }
        func count(_ n: Int, _ what: String) -> String { "\(n) \(what)\(n == 1 ? "" : "s")" }
        var line = "\(store): \(count(summary.written, "projection file")) written, \(summary.kept) kept; "
            + "\(count(summary.commits, "commit")), \(count(summary.sessions, "session"))"
        if summary.removed > 0 { line += "; \(count(summary.removed, "stray file")) removed" }
        Output.line(line)
    }
}
