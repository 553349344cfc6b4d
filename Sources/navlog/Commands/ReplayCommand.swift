import ArgumentParser
import NavLogCore
import NavLogStore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog replay LOG [--from N] [--to N] [--json] [--interactive]`: each
/// event with the state change it made (docs/commands.md), or a stepper.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Show each event of a session with the state change it made.",
        discussion: """
            One line per event: seq, time, scene, type and what changed (pushed X on home, \
            selected tab search, presented sheet settings, screen now Y, anomaly Z). Events \
            before --from are applied but not shown, so every change is the real one.

            With --json, one object per line (schemas/replay.schema.json):
              {"anomalies":[...],"effects":[...],"scene":...,"screen":...,
               "seq":...,"t":...,"type":...}

            With --interactive (standard input and output must be a terminal), a stepper \
            that starts at --from (or the first event) and stops at --to:
              n  space  Right Down  next event
              p  Left  Up         previous event
              PgDn  PgUp          20 events on, 20 back
              Home  End           the start (no event applied), the last event
              g SEQ Enter         the last event with seq <= SEQ
              t TIME Enter        the last event with t <= TIME (RFC 3339)
              / GLOB Enter        the next event whose type, screen, route values,
                                  mark:LABEL or url:URL match GLOB (* is the wildcard);
                                  / Enter repeats the last search
              s                   show the full state (again: the events)
              q  Ctrl-C           quit, printing the event it stopped at
              Ctrl-Z              suspend (fg to come back)
              Esc                 cancel a prompt

            Examples:
              navlog replay session.ndjson
              navlog replay session.ndjson --from 40 --to 60
              navlog replay session.ndjson --json | jq -c 'select(.anomalies != [])'
              navlog replay session.ndjson --interactive
              navlog replay store/ --session s-000042 --from 10
            """
    )

    @Argument(help: "A session log (.navlog), an NDJSON file of events (- for standard input), or a store with --session.", completion: .file())
    var log: String

    @Option(name: .long, help: ArgumentHelp("Show events from this seq on.", valueName: "N"))
    var from: Int?

    @Option(name: .long, help: ArgumentHelp("Show events up to this seq.", valueName: "N"))
    var to: Int?

    @Flag(name: .long, help: "One JSON object per event (NDJSON) instead of text.")
    var json = false

    @Flag(name: .long, help: "Step through the session on a terminal.")
    var interactive = false

    @Option(name: .long, help: "Which session: of a store, or of NDJSON that holds several.")
    var session: String?

    @OptionGroup var colorOptions: ColorOptions

    func validate() throws {
        if let from, from < 0 { throw CLIFailure.trouble("replay: --from must be 0 or more, got \(from)") }
        if let to, to < 0 { throw CLIFailure.trouble("replay: --to must be 0 or more, got \(to)") }
        if let from, let to, from > to { throw CLIFailure.trouble("replay: --from \(from) is after --to \(to)") }
        if json && interactive { throw CLIFailure.trouble("replay: --json and --interactive do not go together") }
        if interactive && log == "-" {
            throw CLIFailure.trouble("replay: --interactive reads keys from standard input, so the log cannot come from it")
        }
    }

    func run() throws {
        if interactive, isatty(0) == 0 || isatty(1) == 0 {
            throw CLIFailure.trouble("replay: --interactive needs a terminal on standard input and standard output")
        }
        let opened = try OneSession.opened(log, session: session)
        let (id, events) = try reading { () throws(OneSessionError) in try opened.events() }
        if interactive {
            let kept = to.map { to in Array(events.prefix { $0.seq <= to }) } ?? events
            let timeline = CheckpointedTimeline(session: id, events: kept)
            let start = from.map { min(timeline.position(ofSeq: $0 - 1) + 1, timeline.count) } ?? min(1, timeline.count)
            var stepper = ReplayStepper(timeline: timeline, start: start)
            try stepper.run()
            return
        }
        if json {
            printJSON(events)
        } else {
            printText(events, widths: ReplayLine.Widths(fitting: events.lazy.filter(range.includes)))
        }
    }

    /// The events shown.
    private var range: ReplayRange { ReplayRange(from: from, to: to) }

    private func printText(_ events: [Event], widths: ReplayLine.Widths) {
        let format = ReplayLine(widths: widths, style: .forStandardOutput)
        range.fold(events) { Output.line(format.text($0)) }
    }

    private func printJSON(_ events: [Event]) {
        var writer = CanonicalWriter()
        range.fold(events) { step in
            writer.reset()
            writer.write(step.jsonValue)
            writer.bytes.append(0x0A)
            Output.write(writer.bytes)
        }
    }
}
