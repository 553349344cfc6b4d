import Foundation
import Testing
import NavLogTestSupport

/// `navlog replay` without a terminal: one line per event with its effects,
/// `--json` lines, ranges, errors (docs/events.md, docs/commands.md).
@Suite("navlog replay")
struct ReplayCommandTests {
    static let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path
    static let examples = repositoryRoot.appendingPathComponent("schemas/examples/events-valid.ndjson").path
    static let checker = repositoryRoot.appendingPathComponent("tools/check-schemas").path

    @Test func eachEventWithTheChangeItMade() {
        let r = navlog("replay", Self.sample)
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == """
             1  2026-11-20T10:00:00.000Z  main  session.start    — session started (app 3.2.0); scene main opened
             2  2026-11-20T10:00:00.050Z  main  tabs.define      — tabs home, search, favorites, settings
             3  2026-11-20T10:00:00.060Z  main  tab.select       — selected tab home; screen now tab:home
             4  2026-11-20T10:00:02.310Z  main  stack.push       — pushed Category/desserts on home; screen now Category/desserts
             5  2026-11-20T10:00:05.120Z  main  stack.push       — pushed Recipe/apple-pie on home; screen now Recipe/apple-pie
             6  2026-11-20T10:00:09.480Z  main  stack.push       — pushed Step/3 on home; screen now Step/3
             7  2026-11-20T10:00:14.002Z  main  tab.select       — selected tab search; screen now tab:search
             8  2026-11-20T10:00:16.750Z  main  stack.push       — pushed Results on search; screen now Results
             9  2026-11-20T10:00:18.200Z  main  stack.push       — pushed Recipe/plum-crumble on search; screen now Recipe/plum-crumble
            10  2026-11-20T10:00:21.900Z  main  mark             — mark add-to-cart
            11  2026-11-20T10:00:22.400Z  main  modal.present    — presented sheet checkout; screen now modal:checkout
            12  2026-11-20T10:00:25.030Z  main  stack.push       — pushed Payment on checkout; screen now Payment
            13  2026-11-20T10:00:27.640Z  main  modal.present    — presented fullScreenCover card-scanner; screen now modal:card-scanner
            14  2026-11-20T10:00:31.000Z  main  modal.dismiss    — dismissed checkout (and card-scanner above it); screen now Recipe/plum-crumble
            15  2026-11-20T10:00:31.500Z  main  tab.select       — selected tab home; screen now Step/3
            16  2026-11-20T10:00:40.000Z  main  url.open         — deep link recipes://recipe/lemon-tart
            17  2026-11-20T10:00:40.010Z  main  stack.popToRoot  — home → (empty); screen now tab:home  (cause 16)
            18  2026-11-20T10:00:40.020Z  main  stack.push       — pushed Category/tarts on home; screen now Category/tarts  (cause 16)
            19  2026-11-20T10:00:40.030Z  main  stack.push       — pushed Recipe/lemon-tart on home; screen now Recipe/lemon-tart  (cause 16)
            20  2026-11-20T10:00:44.300Z  main  stack.pop        — popped 2 from home; screen now tab:home; anomaly pop-underflow
            21  2026-11-20T10:00:50.000Z  main  tab.visibility   — hid tab favorites
            22  2026-11-20T10:00:55.000Z  main  mark             — mark purchase
            23  2026-11-20T10:01:00.000Z  main  session.end      — session ended

            """)
        #expect(!r.stdout.contains("\u{1B}["))  // not a terminal: no colour
    }

    /// Colour only on a terminal (a real pseudo-terminal here), and not with `NO_COLOR`.
    @Test func colourOnATerminalUnlessNoColor() throws {
        let coloured = try PseudoTerminal(navlogBinary(), ["replay", Self.sample, "--to", "20"])
        #expect(try coloured.waitForExit() == .exited(0))
        #expect(coloured.rawOutput.contains("screen now \u{1B}[36mRecipe/apple-pie\u{1B}[0m"))
        #expect(coloured.rawOutput.contains("\u{1B}[33manomaly pop-underflow\u{1B}[0m"))
        let plain = try PseudoTerminal(navlogBinary(), ["replay", Self.sample, "--to", "20"], environment: ["NO_COLOR": "1"])
        #expect(try plain.waitForExit() == .exited(0))
        #expect(!plain.rawOutput.contains("\u{1B}["))
        #expect(PseudoTerminal.plain(coloured.output[...]) == plain.rawOutput.replacingOccurrences(of: "\r", with: ""))
    }

    @Test func aRangeShowsOnlyItsEventsButAppliesTheOnesBefore() {
        let r = navlog("replay", Self.sample, "--from", "17", "--to", "20")
        #expect(r.status == 0)
        // Columns fit the lines shown; seq 17's change needs the pushes before it.
        #expect(r.stdout == """
            17  2026-11-20T10:00:40.010Z  main  stack.popToRoot  — home → (empty); screen now tab:home  (cause 16)
            18  2026-11-20T10:00:40.020Z  main  stack.push       — pushed Category/tarts on home; screen now Category/tarts  (cause 16)
            19  2026-11-20T10:00:40.030Z  main  stack.push       — pushed Recipe/lemon-tart on home; screen now Recipe/lemon-tart  (cause 16)
            20  2026-11-20T10:00:44.300Z  main  stack.pop        — popped 2 from home; screen now tab:home; anomaly pop-underflow

            """)
        #expect(navlog("replay", Self.sample, "--from", "23").stdout.hasPrefix("23  2026-11-20T10:01:00.000Z  main  session.end  — session ended"))
        #expect(navlog("replay", Self.sample, "--to", "0") == (0, "", ""))
        #expect(navlog("replay", Self.sample, "--from", "24") == (0, "", ""))
    }

    @Test func eachAnomalyIsShownAtItsEvent() {
        let lines = navlog("replay", Self.examples).stdout.split(separator: "\n")
        let anomalous = lines.filter { $0.contains("anomaly ") }.map { String($0.prefix(2)) }
        #expect(anomalous == [" 3", "13", "22", "25", "27", "42"])
        for kind in ["pop-underflow", "dismiss-unknown", "dismiss-empty", "present-duplicate", "select-hidden", "after-end"] {
            #expect(lines.contains { $0.contains("anomaly \(kind)") }, "no line shows \(kind)")
        }
    }

    /// The replay's lines as JSON objects.
    static func jsonLines(_ args: String...) throws -> [[String: Any]] {
        let r = run(navlogBinary(), ["replay"] + args + ["--json"])
        #expect(r.status == 0, "\(r.stderr)")
        return try r.stdout.split(separator: "\n").map {
            try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test func jsonLinesFollowTheirSchema() {
        for file in [Self.sample, Self.examples] {
            let r = navlog("replay", file, "--json")
            #expect(r.status == 0)
            let check = run(Self.checker, ["replay", "-"], stdin: Data(r.stdout.utf8))
            #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            #expect(check.stdout.contains("\(r.stdout.split(separator: "\n").count) lines valid (replay)"))
        }
    }

    @Test func jsonLinesCarryEffectsAnomaliesScreenAndCause() {
        let r = navlog("replay", Self.sample, "--from", "16", "--to", "20", "--json")
        #expect(r.stdout == """
            {"anomalies":[],"effects":["deep link recipes://recipe/lemon-tart"],"scene":"main","screen":"Step/3","seq":16,"t":"2026-11-20T10:00:40.000Z","type":"url.open"}
            {"anomalies":[],"cause":16,"effects":["home → (empty)","screen now tab:home"],"scene":"main","screen":"tab:home","seq":17,"t":"2026-11-20T10:00:40.010Z","type":"stack.popToRoot"}
            {"anomalies":[],"cause":16,"effects":["pushed Category/tarts on home","screen now Category/tarts"],"scene":"main","screen":"Category/tarts","seq":18,"t":"2026-11-20T10:00:40.020Z","type":"stack.push"}
            {"anomalies":[],"cause":16,"effects":["pushed Recipe/lemon-tart on home","screen now Recipe/lemon-tart"],"scene":"main","screen":"Recipe/lemon-tart","seq":19,"t":"2026-11-20T10:00:40.030Z","type":"stack.push"}
            {"anomalies":["pop-underflow"],"effects":["popped 2 from home","screen now tab:home"],"scene":"main","screen":"tab:home","seq":20,"t":"2026-11-20T10:00:44.300Z","type":"stack.pop"}

            """)
    }

    /// Every line agrees with `navlog state` at its seq: the screen, and the
    /// anomalies counted so far.
    @Test func jsonAgreesWithTheStateAtEachSeq() throws {
        var counted: [String: Int] = [:]
        for line in try Self.jsonLines(Self.examples) {
            let seq = try #require(line["seq"] as? Int)
            let scene = try #require(line["scene"] as? String)
            for kind in try #require(line["anomalies"] as? [String]) { counted[kind, default: 0] += 1 }
            let r = navlog("state", Self.examples, "--at", String(seq), "--json")
            let state = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let scenes = try #require(state["scenes"] as? [String: [String: Any]])
            #expect(scenes[scene]?["screen"] as? String == line["screen"] as? String, "seq \(seq)")
            #expect(state["anomalies"] as? [String: Int] == counted, "seq \(seq)")
        }
        #expect(counted.count == 6)
    }

    @Test func aFileOfSeveralSessionsNeedsOne() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.file("two.ndjson", """
            {"session":"a","t":"2026-11-20T10:00:01Z","type":"mark","label":"x"}
            {"session":"b","t":"2026-11-20T10:00:02Z","type":"stack.push","stack":"main","value":{"type":"B"}}

            """)
        let both = navlog("replay", file)
        #expect(both.status == 2)
        #expect(both.stdout == "")
        #expect(both.stderr == "navlog: \(file): holds 2 sessions (\"a\", \"b\"); choose one with --session\n")
        let one = navlog("replay", file, "--session", "b")
        #expect(one == (0, "1  2026-11-20T10:00:02.000Z  main  stack.push  — scene main opened; pushed B on main; screen now B\n", ""))
    }

    @Test func rejectedLinesMeanNoReplay() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.file("bad.ndjson", """
            {"session":"a","t":"2026-11-20T10:00:01Z","type":"mark","label":"x"}
            {"session":"a","t":"yesterday","type":"mark","label":"y"}

            """)
        let r = navlog("replay", file)
        #expect(r.status == 1)
        #expect(r.stdout == "")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("navlog: \(file):2: ") == true)
    }

    static let seeHelp = " (see 'navlog replay --help')"

    @Test func usageAndInputTroubleExitTwoWithOneLine() {
        let cases: [([String], String)] = [
            (["replay", Self.sample, "--from", "10", "--to", "5"], "navlog: replay: --from 10 is after --to 5" + Self.seeHelp),
            (["replay", Self.sample, "--to=-1"], "navlog: replay: --to must be 0 or more, got -1" + Self.seeHelp),
            (["replay", Self.sample, "--json", "--interactive"], "navlog: replay: --json and --interactive do not go together" + Self.seeHelp),
            (["replay", "-", "--interactive"],
             "navlog: replay: --interactive reads keys from standard input, so the log cannot come from it" + Self.seeHelp),
            (["replay", Self.sample, "--interactive"], "navlog: replay: --interactive needs a terminal on standard input and standard output"),
        ]
        for (args, message) in cases {
            let r = run(navlogBinary(), args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout == "")
            #expect(r.stderr == message + "\n", "\(args)")
        }
        let missing = navlog("replay", "/nonexistent/session.ndjson")
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("navlog: ") && missing.stderr.contains("/nonexistent/session.ndjson"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
    }

    @Test func aLogReplaysLikeItsNDJSON() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("demo-1.navlog")
        let appended = navlog("append", log, stdin: try String(contentsOfFile: Self.sample, encoding: .utf8))
        try #require(appended.status == 0, "\(appended.stderr)")
        for args in [[String](), ["--from", "14", "--to", "20"], ["--json"]] {
            let fromLog = run(navlogBinary(), ["replay", log] + args)
            let fromNDJSON = run(navlogBinary(), ["replay", Self.sample] + args)
            #expect(fromLog.status == 0, "\(fromLog.stderr)")
            #expect(fromLog.stdout == fromNDJSON.stdout, "\(args)")
            #expect(!fromLog.stdout.isEmpty)
        }
    }

    @Test func readsStandardInput() throws {
        let text = try String(contentsOfFile: Self.sample, encoding: .utf8)
        let r = navlog("replay", "-", "--to", "2", stdin: text)
        #expect(r.status == 0)
        #expect(r.stdout.split(separator: "\n").count == 2)
    }
}
