import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog cat LOG [--from N] [--to N] [--type T]`: the log's events as
/// canonical NDJSON (docs/commands.md) — for an intact log, byte for byte what
/// `lz4 -dc LOG` prints. `navlog cat STORE --session ID`: one session of a store.
struct CatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Print a log's events as canonical NDJSON.",
        discussion: """
            Without options the output is exactly what `lz4 -dc LOG` prints for an intact \
            log. A torn tail (a crash, or a writer still at work) is reported on stderr \
            and the events before it are printed; damage ends the output with exit 1.

            A session of a store is named with --session: `navlog cat STORE --session ID` \
            prints that session's events as its own log would.

            With --follow, cat goes on printing the events a writer adds (`navlog append` to \
            a log, `navlog ingest` to a store) as they are committed, each once and in seq \
            order, until Ctrl-C (exit 0) or, with --to N, until the session passes seq N. \
            The log or the session must exist when cat starts.

            Examples:
              navlog cat s-1.navlog
              navlog cat s-1.navlog --from 100 --to 200 --type stack.push
              navlog cat store/ --session s-000001
              navlog cat store/ --session s-000001 --follow --to 20
            """
    )

    @Argument(help: "The .navlog file, or a store with --session.", completion: .file())
    var log: String

    @Option(name: .long, help: ArgumentHelp("Which session of a store.", valueName: "id"))
    var session: String?

    @Option(help: "Only events with seq >= N.")
    var from: Int?

    @Option(help: "Only events with seq <= N.")
    var to: Int?

    @Option(help: ArgumentHelp("Only events of this type (repeatable).", valueName: "type"))
    var type: [String] = []

    @Flag(name: [.customShort("f"), .long], help: "Keep printing events as a writer commits them, until Ctrl-C.")
    var follow = false

    func validate() throws {
        if let from, from < 0 { throw ValidationError("--from must be 0 or more, got \(from)") }
        if let to, to < 0 { throw ValidationError("--to must be 0 or more, got \(to)") }
    }

    func run() throws {
        if follow { return try runFollowing() }
        let opened = try OneSession.opened(log, session: session, form: .logOrStore)
        let printed: Int
        do { printed = try opened.lines(filter) { Output.write(bytes: $0) } } catch {
            Output.flushStandardOutput()
            throw CLIFailure(error)
        }
        if !filter.isEmpty && printed == 0 { noteWhatMatchedNothing() }
        Output.flushStandardOutput()
        try reading { () throws(OneSessionError) in try opened.finish() }
    }

    /// `--from`, `--to` and `--type`.
    var filter: EventFilter { EventFilter(fromSeq: from, toSeq: to, types: Set(type)) }
}

extension CatCommand {
    /// Why `--from`, `--to` and `--type` printed nothing.
    func noteWhatMatchedNothing() {
        if let from, let to, from > to {
            Output.nothingMatched("cat: --from \(from) is after --to \(to): no events")
        } else {
            let filters = [from.map { "--from \($0)" }, to.map { "--to \($0)" }].compactMap { $0 }
                + type.map { "--type \($0)" }
            Output.nothingMatched("cat: no event of \(log) matches \(filters.joined(separator: " "))")
        }
    }
}

extension Output {
    /// Appends raw bytes to standard output (buffered).
    static func write(bytes: UnsafeRawBufferPointer) {
        write([UInt8](bytes))
    }
}
