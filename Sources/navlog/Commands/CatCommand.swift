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
        if session != nil || SessionLookup.isStore(log) {
            switch try SessionInput.open(log, session: session) {
            case .log(let reader, let file): return try printLog(reader, file)
            case .stored(let stored): return try printStored(stored)
            case .ndjson: break
            }
        }
        let reader: LogReader
        do { reader = try LogReader(path: log) } catch { throw CLIFailure(error) }
        try printLog(reader, log)
    }

    /// Prints a log's events, `file` naming it in messages.
    private func printLog(_ reader: LogReader, _ file: String) throws {
        do {
            if from == nil && to == nil && type.isEmpty {
                try reader.forEachContent { Output.write(bytes: $0) }
            } else {
                let types = Set(type)
                let cursor = reader.cursor(fromSeq: from ?? 1, toSeq: to ?? Int.max)
                var writer = CanonicalWriter(capacity: 1 << 16)
                var printed = 0
                while let event = try cursor.next() {
                    if !types.isEmpty && !types.contains(event.type) { continue }
                    printed += 1
                    Self.emit(event, &writer)
                }
                Output.write(writer.bytes)
                if printed == 0 { noteWhatMatchedNothing() }
            }
        } catch {
            Output.flushStandardOutput()
            throw CLIFailure(error)
        }
        Output.flushStandardOutput()
        if let damage = reader.damage {
            let message = "\(file): \(damage)"
            if damage.isTornTail {
                Output.error(message)
            } else {
                throw CLIFailure.no(message)
            }
        }
    }
}

extension CatCommand {
    /// Writes an event's canonical line into `writer`, handing full buffers to standard output.
    static func emit(_ event: Event, _ writer: inout CanonicalWriter) {
        writer.write(event)
        writer.bytes.append(0x0A)
        if writer.bytes.count >= 1 << 16 {
            Output.write(writer.bytes)
            writer.reset()
        }
    }

    /// Prints a stored session's events: its stored lines, or with filters
    /// the events that pass them re-written, as for a log.
    private func printStored(_ stored: StoredSession) throws {
        let filtered = from != nil || to != nil || !type.isEmpty
        let types = Set(type)
        var parser = EventLineParser()
        var writer = CanonicalWriter(capacity: 1 << 16)
        var printed = 0
        do {
            try stored.forEachLine { line throws(SegmentStoreError) in
                guard filtered else {
                    Output.write(bytes: line)
                    Output.write([0x0A])
                    return
                }
                guard let event = try? parser.parse(line) else {
                    throw .invalidEvent(session: stored.id, seq: 0, reason: "a stored line does not parse as an event")
                }
                if event.seq < from ?? 1 || event.seq > to ?? Int.max || (!types.isEmpty && !types.contains(event.type)) { return }
                printed += 1
                Self.emit(event, &writer)
            }
        } catch {
            Output.flushStandardOutput()
            throw CLIFailure(SessionLookupError.segments(error))
        }
        Output.write(writer.bytes)
        Output.flushStandardOutput()
        if filtered && printed == 0 { noteWhatMatchedNothing() }
    }

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
