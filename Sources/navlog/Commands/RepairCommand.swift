import ArgumentParser
import NavLogStore

/// `navlog repair LOG_OR_STORE`: cut a log's torn or damaged tail, or set a
/// store's damage aside, keeping the cut bytes (docs/commands.md).
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Cut a log's torn or damaged tail, or set a store's damage aside, keeping the bytes in side files.",
        discussion: """
            A log is cut at the end of its valid prefix; the cut bytes are first copied \
            to LOG.damaged-<offset> (LOG.torn-<offset> for a torn tail), so nothing is lost. An unfinished last block keeps its \
            complete events and is finished in place; the footer is rewritten. Takes the \
            writer lock.

            A segment store keeps its longest prefix of intact commits: the bytes after it \
            are copied to NNNNNNNN.nls.damaged-<offset> (NNNNNNNN.nls.torn-<offset> for a \
            torn tail) and the segment cut there; later segments are renamed \
            NNNNNNNN.nls.damaged-0; a missing manifest and the durable point are written \
            again. Every file moved, with the commits and events in it, is printed.

            Examples:
              navlog repair s-1.navlog
              navlog repair store/
            """
    )

    @Argument(help: "The .navlog file or segment store.", completion: .file())
    var log: String

    func run() throws {
        let repaired: Integrity.Repaired
        do { repaired = try Integrity.repair(log) } catch { throw CLIFailure(repairing: error) }
        try RepairOutput.print(repaired, path: log)
    }
}
