import ArgumentParser
import NavLogCore
import NavLogSample
import NavLogStore

/// `navlog generate`: realistic synthetic sessions as NDJSON, canonical or
/// as other producers write it.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write realistic synthetic sessions of a recipe app as NDJSON.",
        discussion: """
            Sessions model phones with tabs and iPads with split views and a second \
            window: stacks, sheets and alerts, deep links with the navigation they \
            cause (`cause`), a browse -> recipe -> add-to-cart -> purchase funnel with \
            drop-off, a few anomalies and unknown event kinds. The same options and \
            seed always give byte-identical output.

            --style producer writes the same events as other producers write \
            them: keys in another order, a space after `:` and `,`, `t` in local time \
            with an offset and 3 to 6 fraction digits, `seq` absent on about 15 % of \
            lines. Ingesting either style stores the same events.

            --events-per-session heavy gives heavy-tailed session lengths: a third of \
            the sessions have one event, the median is 3, a few have hundreds. \
            --screens N makes sessions short page flows in which every screen view \
            is one of N screens (tabs, categories, recipes, steps).

            Example:
              navlog generate --sessions 1000 --seed 7 --interleave --output sample.ndjson
              navlog ingest sample.ndjson --store store/
              navlog generate --events-per-session heavy --screens 20 --style producer
            """
    )

    @Option(help: "How many sessions.")
    var sessions: Int = 100

    @Option(help: "The random seed; the same seed gives the same output.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp(
        "Events per session: a mean M (lengths vary from M/2 to 3M/2), a range MIN-MAX, or heavy (median 3, a third with one, a few with hundreds).",
        valueName: "M|MIN-MAX|heavy"))
    var eventsPerSession: String?

    @Option(help: ArgumentHelp("With N (4 or more), sessions are short page flows over N screens.", valueName: "N"))
    var screens: Int?

    @Option(help: ArgumentHelp("navlog (canonical lines) or producer (the same events as other producers write them).",
                               valueName: "navlog|producer"))
    var style: SampleLineStyle = .navlog

    @Flag(help: "Interleave sessions by time, as a collector receives them (default: one session after another).")
    var interleave = false

    @Option(help: "With --interleave, the most sessions under way at once.")
    var liveSessions: Int = 64

    @Option(help: ArgumentHelp("When the first session starts (RFC 3339).", valueName: "time"))
    var start: String?

    @Option(help: ArgumentHelp("App versions to spread over the sessions, oldest first, comma-separated.", valueName: "versions"))
    var appVersions: String?

    @Flag(name: .customLong("ios18-tabs"), help: "iPad sessions with tabs use the tab model of iOS 18 and later: sidebar sections, a search tab, the sidebarAdaptable presentation and the user's customization.")
    var ios18Tabs = false

    @Option(name: [.short, .long], help: ArgumentHelp("Write to this file instead of standard output (- for standard output).", valueName: "file"), completion: .file())
    var output: String?

    func validate() throws {
        if sessions < 0 { throw Self.usage("--sessions must be 0 or more, got \(sessions)") }
        if liveSessions < 1 { throw Self.usage("--live-sessions must be 1 or more, got \(liveSessions)") }
        if let start, Timestamp(rfc3339: start) == nil {
            throw Self.usage("--start: \(Timestamp.refusal(rfc3339: start))")
        }
        if let eventsPerSession, eventsPerSession != "heavy", Self.eventCounts(eventsPerSession) == nil {
            throw Self.usage("--events-per-session takes a mean M ≥ 1, a range MIN-MAX with 1 ≤ MIN ≤ MAX, or heavy, got \(eventsPerSession)")
        }
        if let screens, screens < 4 { throw Self.usage("--screens must be 4 or more, got \(screens)") }
        if let appVersions, Self.versionList(appVersions).isEmpty {
            throw Self.usage("--app-versions needs at least one version")
        }
    }

    func run() throws {
        var options = SampleGenerator.Options(sessions: sessions, seed: seed, interleave: interleave, liveSessions: liveSessions,
                                              ios18Tabs: ios18Tabs, heavyTailedLengths: eventsPerSession == "heavy", screens: screens)
        if let eventsPerSession, let range = Self.eventCounts(eventsPerSession) { options.eventsPerSession = range }
        if let start, let t = Timestamp(rfc3339: start) { options.start = t }
        if let appVersions { options.appVersions = Self.versionList(appVersions) }
        let generator = SampleGenerator(options)

        var file: OutputFile?
        if let output, output != "-" {
            do { file = try OutputFile(path: output) } catch { throw CLIFailure.trouble(error.description) }
        }
        let chunk = 1 << 20
        var writer = SampleLineWriter(style: style, seed: seed, capacity: chunk + 64 * 1024)
        do {
            for event in generator.events() {
                writer.write(event)
                if writer.bytes.count >= chunk {
                    try emit(writer.bytes, to: file)
                    writer.reset()
                }
            }
            try emit(writer.bytes, to: file)
            try file?.close()
        } catch {
            throw CLIFailure.trouble(error.description)
        }
    }

    private func emit(_ bytes: [UInt8], to file: OutputFile?) throws(FileError) {
        if let file {
            try file.write(bytes)
        } else {
            Output.write(bytes)
            Output.flushStandardOutput()
        }
    }

    /// `--events-per-session`: `M` (a mean) or `MIN-MAX`.
    private static func eventCounts(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 1, let mean = Int(parts[0]), mean >= 1 {
            return SampleGenerator.Options.eventsPerSession(mean: mean)
        }
        if parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), low >= 1, high >= low {
            return low...high
        }
        return nil
    }

    private static func versionList(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0.drop { $0 == " " }) }.filter { !$0.isEmpty }
    }

    /// A usage error; the root command prints it as one line and exits 2.
    private static func usage(_ message: String) -> ValidationError {
        ValidationError("generate: " + message)
    }
}
