import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog cat LOG [--from N] [--to N] [--type T]`: the log's events as
/// canonical NDJSON (contract §4) — for an intact log, byte for byte what
/// `lz4 -dc LOG` prints.
struct CatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cat",
        abstract: "Print a log's events as canonical NDJSON.",
        discussion: """
            Without options the output is exactly what `lz4 -dc LOG` prints for an intact \
            log. A torn tail (a crash, or a writer still at work) is reported on stderr \
            and the events before it are printed; damage ends the output with exit 1.

            Examples:
              navlog cat s-1.navlog
              navlog cat s-1.navlog --from 100 --to 200 --type stack.push
            """
    )

    @Argument(help: "The .navlog file.", completion: .file())
    var log: String

    @Option(help: "Only events with seq >= N.")
    var from: Int?

    @Option(help: "Only events with seq <= N.")
    var to: Int?

    @Option(help: ArgumentHelp("Only events of this type (repeatable).", valueName: "type"))
    var type: [String] = []

    func validate() throws {
        if let from, from < 0 { throw ValidationError("--from must be 0 or more, got \(from)") }
        if let to, to < 0 { throw ValidationError("--to must be 0 or more, got \(to)") }
    }

    func run() throws {
        let reader: LogReader
        do { reader = try LogReader(path: log) } catch { throw CLIFailure(error) }
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
                    writer.write(event)
                    writer.bytes.append(0x0A)
                    if writer.bytes.count >= 1 << 16 {
                        Output.write(writer.bytes)
                        writer.reset()
                    }
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
            let message = "\(log): \(damage)"
            if damage.isTornTail {
                Output.error(message)
            } else {
                throw CLIFailure.no(message)
            }
        }
    }
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
