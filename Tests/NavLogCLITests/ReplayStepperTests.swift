import Foundation
import Testing
import NavLogTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog replay --interactive` on a real pseudo-terminal: the test types
/// keys and reads the screen the stepper draws.
@Suite("navlog replay --interactive", .serialized)
struct ReplayStepperTests {
    static let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path

    /// The stepper on the sample session, without colour, and its first frame.
    static func start(
        _ extra: [String] = [], environment: [String: String] = ["NO_COLOR": "1"]
    ) throws -> (PseudoTerminal, String) {
        let terminal = try PseudoTerminal(navlogBinary(), ["replay", sample, "--interactive"] + extra, environment: environment)
        let frame = try terminal.nextFrame(containing: "navlog replay · session demo-1")
        return (terminal, frame)
    }

    /// The line of the event marked as current in a frame.
    static func current(_ frame: String) -> String? {
        frame.split(separator: "\n").first { $0.hasPrefix("▶") }.map(String.init)
    }

    /// Quits with `q` and checks the process ended well and gave the terminal back.
    static func quit(_ terminal: PseudoTerminal, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try terminal.send("q")
        #expect(try terminal.waitForExit() == .exited(0), sourceLocation: sourceLocation)
        #expect(terminal.settings.modeFlags == terminal.initialSettings.modeFlags, sourceLocation: sourceLocation)
    }

    @Test func stepsForwardAndBackWithLettersArrowsAndSpace() throws {
        var (terminal, frame) = try Self.start()
        #expect(frame.contains("event 1 of 23"))
        #expect(Self.current(frame)?.contains("session.start") == true)
        #expect(!terminal.settings.isCooked)  // raw mode while it runs

        try terminal.send("n")
        frame = try terminal.nextFrame(containing: "event 2 of 23")
        #expect(frame.contains("\n    tabs home, search, favorites, settings\n"))
        try terminal.send("\u{1B}[C")  // →
        frame = try terminal.nextFrame(containing: "event 3 of 23")
        #expect(frame.contains("    selected tab home\n    screen now tab:home\n"))
        try terminal.send(" ")
        frame = try terminal.nextFrame(containing: "event 4 of 23")
        #expect(Self.current(frame) == "▶  4  2026-11-20T10:00:02.310Z  main  stack.push       — pushed Category/desserts on home; screen now Category/desserts")
        #expect(frame.contains("screens  main: Category/desserts"))

        try terminal.send("p")
        try terminal.nextFrame(containing: "event 3 of 23")
        try terminal.send("\u{1B}[D")  // ←
        try terminal.nextFrame(containing: "event 2 of 23")
        try terminal.send("pp")
        frame = try terminal.nextFrame(containing: "start (no event applied), 23 events")
        #expect(Self.current(frame) == "▶ (start: no event applied)")
        #expect(frame.contains("screens  (no scenes)"))
        try terminal.send("p")
        try terminal.nextFrame(containing: "start (no event applied)", "at the start")
        try Self.quit(terminal)
    }

    @Test func jumpsToASeqAndToATime() throws {
        let (terminal, _) = try Self.start()
        try terminal.send("g13\r")
        var frame = try terminal.nextFrame(containing: "event 13 of 23")
        #expect(frame.contains("    presented fullScreenCover card-scanner\n    screen now modal:card-scanner\n"))
        try terminal.send("g99\r")
        try terminal.nextFrame(containing: "event 23 of 23", "no event with seq 99; at seq 23, the last before it")
        try terminal.send("t2026-11-20T10:00:40.015Z\r")
        frame = try terminal.nextFrame(containing: "event 17 of 23")
        #expect(frame.contains("seq 17 · stack.popToRoot · scene main · 2026-11-20T10:00:40.010Z · cause 16"))
        try terminal.send("t2026-11-20T11:00:05.120+01:00\r")  // an offset: 10:00:05.120Z, seq 5 exactly
        try terminal.nextFrame(containing: "event 5 of 23", "pushed Recipe/apple-pie on home")
        try terminal.send("tlast tuesday\r")
        try terminal.nextFrame(containing: "event 5 of 23", "not an RFC 3339 time: last tuesday")
        try terminal.send("g0\r")
        try terminal.nextFrame(containing: "start (no event applied)")
        try Self.quit(terminal)
    }

    @Test func thePromptCanBeEditedAndCancelled() throws {
        let (terminal, _) = try Self.start()
        try terminal.send("g1")
        try terminal.nextFrame(containing: "seq: 1")
        try terminal.send("\u{7F}7\r")  // backspace, then 7
        try terminal.nextFrame(containing: "event 7 of 23")
        try terminal.send("g5")
        try terminal.nextFrame(containing: "seq: 5")
        try terminal.send("\u{1B}")  // Escape: cancel
        let frame = try terminal.nextFrame { !$0.contains("seq: ") }
        #expect(frame.contains("event 7 of 23"))
        #expect(frame.contains("n/→ next · p/← previous"))
        try Self.quit(terminal)
    }

    @Test func searchFindsTheNextEventWhoseTypeScreenOrValuesMatch() throws {
        let (terminal, _) = try Self.start()
        try terminal.send("/Recipe/lemon*\r")
        var frame = try terminal.nextFrame(containing: "event 19 of 23", "found Recipe/lemon*")
        #expect(Self.current(frame)?.contains("pushed Recipe/lemon-tart on home") == true)
        try terminal.send("/mark:*\r")
        frame = try terminal.nextFrame(containing: "event 22 of 23")
        #expect(frame.contains("    mark purchase\n"))
        try terminal.send("/\r")  // an empty pattern repeats the last search
        try terminal.nextFrame(containing: "event 22 of 23", "no later event matches mark:*")
        try terminal.send("g0\r/stack.pop\r")
        try terminal.nextFrame(containing: "event 20 of 23", "anomaly pop-underflow")
        try terminal.send("g0\r/tab:search\r")  // a screen
        try terminal.nextFrame(containing: "event 7 of 23", "found tab:search")
        try Self.quit(terminal)
    }

    @Test func showsTheFullStateAndKeepsShowingItWhileStepping() throws {
        let (terminal, _) = try Self.start()
        try terminal.send("g13\rs")
        var frame = try terminal.nextFrame(containing: "session demo-1 · seq 13 · 2026-11-20T10:00:27.640Z")
        #expect(frame.contains("scene main  screen: modal:card-scanner\n"))
        #expect(frame.contains("  stack home     Category/desserts › Recipe/apple-pie › Step/3\n"))
        #expect(frame.contains("  modals     checkout (sheet) › card-scanner (fullScreenCover)\n"))
        #expect(Self.current(frame) == nil)
        try terminal.send("n")
        frame = try terminal.nextFrame(containing: "session demo-1 · seq 14 ·")
        #expect(!frame.contains("  modals "))
        try terminal.send("s")
        frame = try terminal.nextFrame(containing: "event 14 of 23")
        #expect(Self.current(frame)?.contains("dismissed checkout (and card-scanner above it)") == true)
        try Self.quit(terminal)
    }

    @Test func quittingRestoresTheTerminalAndPrintsWhereItStopped() throws {
        let (terminal, _) = try Self.start()
        try terminal.send("g5\r")
        try terminal.nextFrame(containing: "event 5 of 23")
        try Self.quit(terminal)
        #expect(terminal.rawOutput.hasSuffix(
            "\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
                + " 5  2026-11-20T10:00:05.120Z  main  stack.push       — pushed Recipe/apple-pie on home; screen now Recipe/apple-pie\r\n"))
        #expect(terminal.rawOutput.hasPrefix("\u{1B}[?1049h"))
    }

    @Test func ctrlCQuitsLikeQ() throws {
        let (terminal, _) = try Self.start()
        try terminal.send("\u{03}")
        #expect(try terminal.waitForExit() == .exited(0))
        #expect(terminal.settings.modeFlags == terminal.initialSettings.modeFlags)
        #expect(terminal.settings.isCooked)
    }

    @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
    func aSignalRestoresTheTerminalThenEndsTheProcess(signal: Int32) throws {
        let (terminal, _) = try Self.start()
        #expect(!terminal.settings.isCooked)
        kill(terminal.pid, signal)
        #expect(try terminal.waitForExit() == .signaled(signal))
        #expect(terminal.settings.modeFlags == terminal.initialSettings.modeFlags)
        #expect(terminal.rawOutput.contains("\u{1B}[?1049l"))
    }

    /// Ctrl-Z (a byte in raw mode) and SIGTSTP: the terminal is given back
    /// (cooked, the main screen) and the process stops, as a shell's job
    /// does; on SIGCONT (`fg`) it takes the terminal again and draws the
    /// frame anew where it was.
    @Test(arguments: ["Ctrl-Z", "SIGTSTP"])
    func suspendingGivesTheTerminalBackUntilContinued(_ how: String) throws {
        let (terminal, _) = try Self.start()
        try terminal.send("nn")
        try terminal.nextFrame(containing: "event 3 of 23")
        let before = terminal.rawOutput.utf8.count
        if how == "Ctrl-Z" { try terminal.send("\u{1A}") } else { kill(terminal.pid, SIGTSTP) }
        // Cooked again, and the main screen back (read as it arrives).
        let leave = "\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l"
        try terminal.waitForSettings { $0.isCooked && String(terminal.rawOutput.utf8.dropFirst(before))!.contains(leave) }
        #if os(Linux)
        // Stopped ("T" in /proc/PID/stat), not merely waiting for a key.
        let deadline = Date().addingTimeInterval(10)
        func state() -> String? {
            (try? String(contentsOfFile: "/proc/\(terminal.pid)/stat", encoding: .utf8))?
                .split(separator: ")").last?.split(separator: " ").first.map(String.init)
        }
        while state() != "T", Date() < deadline { usleep(10_000) }
        #expect(state() == "T")
        #endif
        kill(terminal.pid, SIGCONT)
        try terminal.nextFrame(containing: "event 3 of 23")
        #expect(!terminal.settings.isCooked)   // raw again
        #expect(!terminal.rawOutput.contains("unknown key"))
        try terminal.send("n")
        try terminal.nextFrame(containing: "event 4 of 23")
        try Self.quit(terminal)
    }

    @Test func pageKeysMoveTwentyEventsAtATime() throws {
        let (terminal, _) = try Self.start()
        try terminal.send("\u{1B}[6~")  // PgDn
        try terminal.nextFrame(containing: "event 21 of 23")
        try terminal.send("\u{1B}[6~")
        try terminal.nextFrame(containing: "event 23 of 23")
        try terminal.send("\u{1B}[6~")
        try terminal.nextFrame(containing: "event 23 of 23", "at the last event")
        try terminal.send("\u{1B}[5~")  // PgUp
        try terminal.nextFrame(containing: "event 3 of 23")
        try terminal.send("\u{1B}[5~")
        try terminal.nextFrame(containing: "start (no event applied)")
        try terminal.send("\u{1B}[5~")
        try terminal.nextFrame(containing: "at the start")
        try Self.quit(terminal)
    }

    @Test func colourOnATerminalUnlessNoColor() throws {
        let (coloured, _) = try Self.start(environment: [:])
        #expect(coloured.rawOutput.contains("\u{1B}[36m"))
        try Self.quit(coloured)
        let (plain, _) = try Self.start()
        try Self.quit(plain)
        #expect(!plain.rawOutput.contains("\u{1B}[36m"))
        #expect(!plain.rawOutput.contains("\u{1B}[1m"))
    }

    @Test func aSmallerWindowGetsASmallerFrame() throws {
        var (terminal, frame) = try Self.start()
        #expect(frame.split(separator: "\n", omittingEmptySubsequences: false).count == 23 + 10)  // every event fits in 40 rows
        terminal.resize(rows: 14, columns: 80)
        frame = try terminal.nextFrame { _ in true }
        let lines = frame.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 14)
        #expect(lines.first == "navlog replay · session demo-1 · event 1 of 23")
        #expect(lines.last == "n/→ next · p/← previous · g seq · t time · / search · s state · q quit")
        try Self.quit(terminal)
    }

    @Test func stepsThroughALog() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("demo-1.navlog")
        try #require(navlog("append", log, stdin: try String(contentsOfFile: Self.sample, encoding: .utf8)).status == 0)
        let terminal = try PseudoTerminal(navlogBinary(), ["replay", log, "--interactive", "--from", "20"], environment: ["NO_COLOR": "1"])
        let frame = try terminal.nextFrame(containing: "event 20 of 23")
        #expect(frame.contains("    anomaly pop-underflow\n"))
        try terminal.send("\u{1B}[A")  // ↑
        try terminal.nextFrame(containing: "event 19 of 23", "pushed Recipe/lemon-tart on home")
        try Self.quit(terminal)
    }

    @Test func fromAndToBoundTheSteps() throws {
        let (terminal, frame) = try Self.start(["--from", "18", "--to", "19"])
        #expect(frame.contains("event 18 of 19"))
        try terminal.send("n")
        try terminal.nextFrame(containing: "event 19 of 19")
        try terminal.send("n")
        try terminal.nextFrame(containing: "event 19 of 19", "at the last event")
        try Self.quit(terminal)
    }

    /// Backwards across checkpoints (every 256 events) on a long session: the
    /// screens shown agree with `navlog state` at the same seq.
    @Test func stepsBackAcrossCheckpointsOnALongSession() throws {
        let dir = try TemporaryDirectory()
        let file = dir.file("long.ndjson")
        let generated = navlog("generate", "--sessions", "1", "--seed", "3", "--events-per-session", "1500-1500", "--output", file)
        try #require(generated.status == 0, "\(generated.stderr)")
        let terminal = try PseudoTerminal(navlogBinary(), ["replay", file, "--interactive"], environment: ["NO_COLOR": "1"])
        try terminal.nextFrame(containing: "event 1 of 1500")
        try terminal.send("g1500\r")
        try terminal.nextFrame(containing: "event 1500 of 1500")
        try terminal.send("g770\r")
        try terminal.nextFrame(containing: "event 770 of 1500")
        try terminal.send(String(repeating: "p", count: 6))  // 770 → 764, across the checkpoint at 768
        let frame = try terminal.nextFrame(containing: "event 764 of 1500")
        let screens = try #require(frame.split(separator: "\n").first { $0.hasPrefix("screens  ") })
        let state = navlog("state", file, "--at", "764", "--json")
        let object = try #require(JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any])
        let scenes = try #require(object["scenes"] as? [String: [String: Any]])
        let expected = scenes.keys.sorted().map { "\($0): \(scenes[$0]!["screen"] as! String)" }.joined(separator: " · ")
        #expect(screens == "screens  " + expected)
        try Self.quit(terminal)
    }
}
