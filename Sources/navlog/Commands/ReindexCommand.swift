import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog reindex STORE`: rebuilds a segment store's screen projection
/// when it is damaged, deleted or behind (schemas/screen-projection.md §6).
struct ReindexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reindex",
        abstract: "Rebuild a segment store's screen projection when it is damaged, deleted or behind.",
        discussion: """
            Every writer (ingest, import, store upgrade) keeps a store's screen projection from its \
            first commit: the screen views, marks and deep links of each commit's sessions in a compact \
            columnar form, NNNNNNNN.views beside each segment NNNNNNNN.nls \
            (schemas/screen-projection.md), which funnel, paths and export screens read instead of the \
            events when it covers every commit. reindex is for the cases where it does not: a file that \
            is damaged or deleted, a projection left behind by a crash, or a store written without one \
            (the writer then says so and leaves it as it is). It reads every session of the store once; \
            a file that is missing, damaged or out of date is rewritten, one that is right is kept. \
            Until then readers read the events, with the same answers. Takes the store's lock, as a \
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
