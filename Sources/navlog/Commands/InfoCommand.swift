import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog info LOG`: what a log holds and how it is stored (contract §4).
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a log's events, seq and time range, sizes, compression, blocks and checkpoints.",
        discussion: """
            Reads only the index (the footer of a closed log); no event is decompressed.

            Example:
              navlog info s-1.navlog
              navlog info s-1.navlog --json
            """
    )

    @Argument(help: "The .navlog file.", completion: .file())
    var log: String

    @Flag(name: .long, help: "Print the facts as one JSON object (schemas/info.schema.json).")
    var json = false

    func run() throws {
        let reader: LogReader
        do { reader = try LogReader(path: log) } catch { throw CLIFailure(error) }
        let summary = LogSummary(file: log, reader: reader)
        if json {
            Output.line(summary.jsonValue.canonicalText)
        } else {
            let lines = summary.lines
            let width = lines.map(\.0.count).max() ?? 0
            for (key, value) in lines {
                Output.line(key + ":" + String(repeating: " ", count: width - key.count + 1) + value)
            }
        }
        if let damage = reader.damage, !damage.isTornTail {
            throw CLIFailure.no("\(log): damaged at byte \(damage.offset); run 'navlog verify'")
        }
    }
}
