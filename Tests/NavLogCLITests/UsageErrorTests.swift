import Foundation
import Testing
import NavLogTestSupport

/// Usage errors name their first cause (issue 23): a negative value, a
/// mistyped command or option, a wrong timestamp — one line, exit 2.
@Suite struct UsageErrorTests {
    static func expectUsage(_ args: [String], _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let r = run(navlogBinary(), args)
        #expect(r.status == 2, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stdout == "", "\(args)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(text), "\(args): \(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test func aNegativeNumberIsGivenToItsOption() throws {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        _ = dir
        let log = store + "/" + v1Log("s-a")
        Self.expectUsage(["funnel", store, "--step", "*", "--within", "-5m"], "--within must be positive, got -5m")
        Self.expectUsage(["state", log, "--at", "-1"], #"--at: invalid state spec "-1": a seq must be ≥ 0"#)
        Self.expectUsage(["generate", "--sessions", "-1"], "--sessions must be 0 or more, got -1")
        Self.expectUsage(["paths", ndjson, "--top", "-3"], "--top must be 1 or more, got -3")
        Self.expectUsage(["cat", log, "--from", "-2"], "--from must be 0 or more, got -2")
        Self.expectUsage(["bisect", log, log, "--context", "-1"], "--context")
        Self.expectUsage(["generate", "--live-sessions", "-.5"], "'-.5'")
        // After `--` a negative number is an argument, not a value.
        Self.expectUsage(["state", "--", "-1"], "-1: cannot open")
    }

    @Test func aMistypedCommandGetsASuggestion() {
        Self.expectUsage(["stat"], "'stat' is not a command of navlog; did you mean 'state'?")
        Self.expectUsage(["export", "screen", "x"], "'screen' is not a command of navlog export; did you mean 'screens'?")
        Self.expectUsage(["no-such-command"], "'no-such-command' is not a command of navlog (see 'navlog --help')")
        Self.expectUsage(["help", "nope"], "no command 'nope'")
        Self.expectUsage(["help", "stat"], "no command 'stat'; did you mean 'state'?")
        #expect(navlog("help", "export", "screens").status == 0)
    }

    @Test func anUnknownOptionNamesItselfBeforeAnyValidation() {
        Self.expectUsage(["funnel", "x", "--stpe", "a"], "Unknown option '--stpe'. Did you mean '--step'?")
        Self.expectUsage(["paths", "--tpo", "3"], "Unknown option '--tpo'. Did you mean '--top'?")
        Self.expectUsage(["export", "screens", "--with-mark"], "Unknown option '--with-mark'. Did you mean '--with-marks'?")
    }

    @Test func aTimestampErrorSaysWhatIsWrong() throws {
        let (dir, _, store) = try FunnelCommandTests.inputs()
        _ = dir
        let log = store + "/" + v1Log("s-a")
        let cases: [(String, String)] = [
            ("2026-13-01T00:00:00Z", "month 13 is not 01–12"),
            ("2026-11-20T99:00:00Z", "hour 99 is not 00–23"),
            ("2026-11-20T10:00:60Z", "second 60: leap seconds are not allowed"),
            ("2026-11-31T10:00:00Z", "day 31 in a month of 30 days"),
            ("2026-11-20T10:00:00+24:00", "offset +24:00 is not -23:59 to +23:59"),
            ("2026-11-20 10:00:00Z", "character 11 is ' ', expected 'T'"),
        ]
        for (time, reason) in cases {
            Self.expectUsage(["state", log, "--at", time], "not a strict RFC 3339 instant (\(reason))")
            Self.expectUsage(["funnel", store, "--step", "*", "--from", time], "--from: not a strict RFC 3339 timestamp (\(reason))")
            Self.expectUsage(["generate", "--start", time], "--start: not a strict RFC 3339 timestamp (\(reason))")
        }
        let line = #"{"session":"s","type":"mark","label":"x","t":"2026-02-29T00:00:00Z"}"#
        let r = navlog("state", "-", stdin: line + "\n")
        #expect(r.status == 1)
        #expect(r.stderr.contains(#"<stdin>:1: field "t": not a strict RFC 3339 timestamp (day 29 in a month of 28 days): "2026-02-29T00:00:00Z""#), "\(r.stderr)")
    }
}
