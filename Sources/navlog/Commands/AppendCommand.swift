// Commands/: One file per command: parse its arguments, call the library, print.

import ArgumentParser
import NavLogCore
import NavLogStore

/// `navlog append LOG`: NDJSON from standard input appended to one log,
/// durable on return (docs/commands.md).
struct AppendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "append",
        abstract: "Append NDJSON events from standard input to a log; durable when it returns.",
        discussion: """
            Every line is appended or rejected with its line number and reason (the \
            first 20 on standard error, all counted; exit 1 when any was rejected). A line \
            without seq gets the log's last seq + 1. The log is created when absent; a torn tail left by a crash is cut first (the cut \
            bytes are kept in LOG.torn-<offset>).

            --durability says when events reach the disk while input is still coming: \
            every-append (each event is durable before the next is read), every-seal, \
            on-flush (only at the end), or a number of milliseconds. With --ack, the seq \
            of each event is printed once it is durable.

            Example:
              navlog generate --sessions 1 | navlog append s-1.navlog
            """
    )

    @Argument(help: "The .navlog file to append to.", completion: .file())
    var log: String

    @Option(help: ArgumentHelp("every-append, every-seal, on-flush, or MILLISECONDS (default: on-flush).", valueName: "policy"),
            completion: .list(LogWriterOptions.Durability.argumentNames), transform: LogWriterOptions.Durability.init(argument:))
    var durability: LogWriterOptions.Durability = .onFlush

    @Flag(help: "Print each event's seq on standard output once it is durable.")
    var ack = false

    func run() throws {
        let policy = durability
        let writer: LogWriter
        do { writer = try LogWriter(path: log, options: LogWriterOptions(durability: policy, sealsInBackground: true)) } catch {
            throw CLIFailure.trouble(error.description)
        }
        if let recovery = writer.recovery {
            Output.error("\(log): cut \(recovery.cutBytes) bytes at byte \(recovery.cutOffset) (\(recovery.reason))"
                         + (recovery.sideFile.map { "; kept in \($0)" } ?? "")
                         + (recovery.recoveredEvents > 0 ? "; \(recovery.recoveredEvents) events recovered" : ""))
        }
        let input: NDJSONLineReader
        do { input = try NDJSONLineReader(path: "-") } catch { throw CLIFailure.trouble(error.description) }
        var parser = EventLineParser()
        let reporter = RejectionReporter()
        var rejected = 0
        func reject(_ line: Int, _ reason: String) {
            rejected += 1
            reporter.reject("<stdin>:\(line): \(reason)", bytes: nil)
        }
        var storeError: FileError?
        let acksEveryEvent = ack && policy == .everyAppend
        do throws(NDJSONFailure<FileError>) {
            try input.forEachLine { (line) throws(FileError) in
                if line.isBlank { return }
                let event: Event
                if let length = line.overLimitBytes {
                    return reject(line.number, EventParseError.lineTooLong(bytes: length, limit: EventParser.maxLineBytes).description)
                }
                do { event = try parser.parse(line.bytes) } catch { return reject(line.number, "\(error)") }
                do throws(FileError) {
                    let seq = try writer.append(event)
                    if acksEveryEvent {
                        Output.line(String(seq))
                        Output.flushStandardOutput()
                    }
                } catch {
                    if case .rejected = error.kind {
                        reject(line.number, error.reason)
                    } else {
                        throw error
                    }
                }
            }
        } catch {
            switch error {
            case .read(let e): throw CLIFailure.trouble(e.description)
            case .body(let e): storeError = e
            }
        }
        if let storeError { throw CLIFailure.trouble(storeError.description) }
        do { try writer.close() } catch { throw CLIFailure.trouble(error.description) }
        if ack && !acksEveryEvent {
            Output.line(String(writer.lastSeq))
        }
        if rejected > 0 {
            throw CLIFailure.no("\(log): \(rejected) line\(rejected == 1 ? "" : "s") rejected\(RejectionReporter.notShown(rejected)); "
                                + "the others were appended")
        }
    }
}
