import Foundation
import Testing
import NavLogTestSupport

/// Every example in every `--help` works when pasted: each is run by
/// `/bin/sh` in a directory of generated sample files named as the examples
/// name them, and must not end in a usage error (exit 2) nor print a
/// result that is empty because nothing matched.
@Suite("Help examples")
struct HelpExampleTests {
    /// Every command path: `state`, …, `export screens`, `import csv`.
    static func commandPaths() -> [[String]] {
        var paths: [[String]] = []
        func subcommands(of path: [String]) -> [String] {
            let help = run(navlogBinary(), path + ["--help"]).stdout
            guard let start = help.firstRange(of: "SUBCOMMANDS:") else { return [] }
            return help[start.upperBound...].split(separator: "\n").compactMap { line in
                guard line.hasPrefix("  "), !line.dropFirst(2).hasPrefix(" "),
                      let word = line.split(separator: " ").first, word != "help",
                      word.allSatisfy({ $0.isLowercase || $0 == "-" }) else { return nil }
                return String(word)
            }
        }
        for name in subcommands(of: []) {
            paths.append([name])
            for sub in subcommands(of: [name]) { paths.append([name, sub]) }
        }
        return paths
    }

    /// The example lines of a help text, continuation lines (`\`) joined.
    static func examples(_ help: String) -> [String] {
        let block = help.components(separatedBy: "USAGE:")[0].components(separatedBy: "Example").dropFirst().joined()
        var commands: [String] = []
        var pending = ""
        for line in block.split(separator: "\n").dropFirst() where !line.isEmpty {
            let text = line.trimmingCharacters(in: .whitespaces)
            if text.hasSuffix("\\") {
                pending += text.dropLast() + " "
            } else {
                commands.append(pending + text)
                pending = ""
            }
        }
        return commands
    }

    /// The part of an example that navlog runs: pipeline stages into other
    /// tools (`jq`, `duckdb`, `bq`) are left off; `nil` when none is navlog's.
    static func runnable(_ example: String) -> String? {
        var stages: [String] = []
        for stage in example.split(separator: "|").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let words = stage.split(separator: " ").drop { $0.contains("=") }
            guard words.first == "navlog" else { break }
            stages.append(stage)
        }
        return stages.isEmpty ? nil : stages.joined(separator: " | ")
    }

    /// Sample files named as the examples name them.
    static func sampleDirectory() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        func write(_ name: String, _ text: String) throws { _ = try dir.file(name, text) }
        func generate(_ args: String...) -> String {
            let r = run(navlogBinary(), ["generate"] + args)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout
        }
        let sample = generate("--sessions", "100", "--seed", "7", "--interleave")
        for name in ["sample.ndjson", "sessions.ndjson", "production.ndjson"] {
            try write(name, name == "production.ndjson" ? sample.replacingOccurrences(of: "s-000042", with: "s-42") : sample)
        }
        try write("replay.ndjson", generate("--sessions", "60", "--seed", "8").replacingOccurrences(of: "s-000042", with: "s-42"))
        let one = generate("--sessions", "1", "--seed", "5", "--events-per-session", "120")
        let other = generate("--sessions", "1", "--seed", "6", "--events-per-session", "120")
        try write("session.ndjson", one)
        try write("run-b.ndjson", other)
        for (name, text) in [("s-1.navlog", one), ("session.navlog", one), ("run-a.navlog", one), ("run-b.navlog", other)] {
            let r = navlog("append", dir.file(name), stdin: text)
            #expect(r.status == 0, "\(r.stderr)")
        }
        for store in ["store", "logs"] {
            let r = navlog("ingest", dir.file("sample.ndjson"), "--store", dir.file(store))
            #expect(r.status == 0, "\(r.stderr)")
        }
        let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/imports")
        for (name, fixture) in [("path.json", "swiftui-path.json"), ("snapshots.ndjson", "react-navigation.ndjson"),
                                ("ev.json", "ga4.ndjson"), ("events-20261120.json", "ga4.ndjson")] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(fixture), to: dir.url.appendingPathComponent(name))
        }
        let csv = """
            user_id,session_id,event_time,event_type,screen
            u-1,1001,2026-11-20T10:00:00Z,screen:home,Home
            u-1,1001,2026-11-20T10:00:03Z,[Amplitude] Screen Viewed,Recipe
            u-1,1001,2026-11-20T10:00:09Z,purchase,

            """
        try write("export.csv", csv)
        try write("amplitude.csv", csv)
        return dir
    }

    @Test func everyExampleFitsEightyColumns() {
        let paths = Self.commandPaths()
        #expect(paths.count >= 20)
        for path in paths {
            let help = run(navlogBinary(), path + ["--help"]).stdout
            let block = help.components(separatedBy: "USAGE:")[0].components(separatedBy: "Example").dropFirst().joined()
            for line in block.split(separator: "\n").dropFirst() where !line.isEmpty {
                #expect(line.hasPrefix("  "), "navlog \(path.joined(separator: " ")) --help: an example wraps at \(line)")
            }
        }
    }

    @Test func everyExampleRunsOnSampleFiles() throws {
        let dir = try Self.sampleDirectory()
        let bin = URL(fileURLWithPath: navlogBinary()).deletingLastPathComponent().path
        var ran = 0
        for path in Self.commandPaths() {
            for example in Self.examples(navlog(path.joined(separator: " ").split(separator: " ").map(String.init) + ["--help"]).stdout) {
                // A line of an example that wrapped is not a command of its own.
                let tool = example.split(separator: " ").drop { $0.contains("=") }.first.map(String.init) ?? ""
                #expect(["navlog", "jq", "duckdb", "bq"].contains(tool), "\(path): not a command: \(example)")
                guard let command = Self.runnable(example) else { continue }
                if command.contains("--interactive") {
                    // A stepper needs a terminal: run it on one and quit.
                    let args = command.split(separator: " ").dropFirst().map { word in
                        FileManager.default.fileExists(atPath: dir.file(String(word))) ? dir.file(String(word)) : String(word)
                    }
                    let terminal = try PseudoTerminal(navlogBinary(), args, environment: ["NO_COLOR": "1"])
                    _ = try terminal.nextFrame(containing: "navlog replay")
                    try terminal.send("q")
                    #expect(try terminal.waitForExit() == .exited(0), "\(example)")
                    ran += 1
                    continue
                }
                if command.hasPrefix("navlog serve") {
                    // A server runs until stopped: its store in the sample directory, on a free port, stopped once it listens.
                    let words = command.split(separator: " ").map(String.init)
                    let store = try #require(words.firstIndex(of: "--store").map { words[$0 + 1] }, "\(example)")
                    #expect(try ServedStore(store: dir.file(store)).stop().status == 0, "\(example)")
                    ran += 1
                    continue
                }
                let r = run("/bin/sh", ["-c", "cd '\(dir.url.path)' && " + command],
                            environment: ["PATH": bin + ":/usr/bin:/bin", "KEY": "example-key", "NO_COLOR": "1"])
                ran += 1
                #expect(r.status != 2, "\(example): \(r.stderr)")
                #expect(r.status != 127, "\(example): \(r.stderr)")
                // Paths with nothing under the heading: nothing matched.
                if command.hasPrefix("navlog paths") {
                    #expect(r.stdout.split(separator: "\n").count >= 2 && !r.stdout.contains("(none)"), "\(example): \(r.stdout)")
                }
                for note in ["navlog: funnel: no ", "navlog: paths: no ", "navlog: cat: "] {
                    #expect(!r.stderr.contains(note), "\(example): \(r.stderr)")
                }
            }
        }
        #expect(ran >= 40)
    }
}
