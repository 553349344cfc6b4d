import Foundation
import Testing
import NavLogTestSupport

/// `--color auto|always|never` on every command that colours; `TERM=dumb`
/// means no colour, as `NO_COLOR` does.
@Suite struct ColorOptionTests {
    @Test func termDumbAndColorNeverMeanNoColourOnATerminal() throws {
        let (dir, _, store) = try FunnelCommandTests.inputs()
        _ = dir
        let log = store + "/" + v1Log("s-a")
        let coloured = try PseudoTerminal(navlogBinary(), ["state", log])
        #expect(try coloured.waitForExit() == .exited(0))
        #expect(coloured.rawOutput.contains("\u{1B}["))
        for (args, environment) in [(["state", log], ["TERM": "dumb"]), (["state", log, "--color", "never"], [:])] {
            let plain = try PseudoTerminal(navlogBinary(), args, environment: environment)
            #expect(try plain.waitForExit() == .exited(0))
            #expect(!plain.rawOutput.contains("\u{1B}["), "\(args) \(environment)")
        }
    }

    @Test func everyColouringCommandTakesColorAlways() throws {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        _ = dir
        let log = store + "/" + v1Log("s-a"), other = store + "/" + v1Log("s-b")
        let commands: [[String]] = [
            ["state", log], ["replay", log], ["diff", log, other], ["bisect", log, other], ["blame", log],
            ["funnel", ndjson, "--step", "*"], ["paths", ndjson],
        ]
        for args in commands {
            let always = run(navlogBinary(), args + ["--color", "always"])
            #expect(always.status != 2, "\(args): \(always.stderr)")
            #expect(always.stdout.contains("\u{1B}["), "\(args)")
            let auto = run(navlogBinary(), args + ["--color", "auto"])
            #expect(!auto.stdout.contains("\u{1B}["), "\(args)")  // not a terminal
        }
        let bad = navlog("state", log, "--color", "sometimes")
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("'--color <when>'"), "\(bad.stderr)")
    }
}
