import Foundation
import Testing
import NavLogTestSupport

/// What the command line names is read once and never destroyed (issue 23):
/// a file a command writes may not be one of its inputs (the same file under
/// any name, or a file inside an input store), standard input is read at
/// most once, and `repair` of a missing file creates nothing.
@Suite struct InputSafetyTests {
    static let funnelStep = ["--step", "tab:*"]

    /// An NDJSON input, a log and a store of it, and another name for each file.
    static func inputs() throws -> (dir: TemporaryDirectory, ndjson: String, log: String, store: String) {
        let dir = try TemporaryDirectory()
        let ndjson = try dir.file("in.ndjson", navlog("generate", "--sessions", "3", "--seed", "4").stdout)
        // A store of logs (version 1, read as before): ingest's sessions written out one log each.
        let store = dir.file("store")
        #expect(navlog("ingest", ndjson, "--store", dir.file("segments")).status == 0)
        let log = try #require(try SegmentStoreContents.exportLogs(dir.file("segments"), into: store).first)
        return (dir, ndjson, log, store)
    }

    static func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    /// Every spelling of `path` that names the same file: itself, with `./`,
    /// through `..`, a hard link and a symbolic link.
    static func otherNames(of path: String, in dir: TemporaryDirectory) throws -> [String] {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path, name = url.lastPathComponent
        let hard = dir.file("hard-\(name)"), soft = dir.file("soft-\(name)")
        try FileManager.default.linkItem(atPath: path, toPath: hard)
        try FileManager.default.createSymbolicLink(atPath: soft, withDestinationPath: path)
        let parent = URL(fileURLWithPath: folder).lastPathComponent
        return [path, folder + "/./" + name, folder + "/../" + parent + "/" + name, hard, soft]
    }

    /// `funnel --svg` naming an input: refused before anything is read, for
    /// an NDJSON input, a log and a file inside an input store, whatever the name.
    @Test func funnelSVGIsNeverAnInput() throws {
        let (dir, ndjson, log, store) = try Self.inputs()
        for input in [ndjson, log] {
            let before = try #require(Self.bytes(input))
            for name in try Self.otherNames(of: input, in: dir) {
                let r = navlog(["funnel", input] + Self.funnelStep + ["--svg", name])
                #expect(r.status == 2, "\(name): \(r.stderr)")
                #expect(r.stderr.hasPrefix("navlog: --svg \(name) is the input \(input)"), "\(r.stderr)")
                #expect(r.stdout.isEmpty)
                #expect(Self.bytes(input) == before, "\(name) overwrote \(input)")
            }
        }
        // Standard input, when it is a file, is an input too.
        let before = try #require(Self.bytes(ndjson))
        let piped = Self.run(navlogBinary(), ["funnel", "-"] + Self.funnelStep + ["--svg", ndjson],
                        stdinFile: ndjson)
        #expect(piped.status == 2, "\(piped.stderr)")
        #expect(piped.stderr.contains("--svg \(ndjson) is standard input"), "\(piped.stderr)")
        #expect(Self.bytes(ndjson) == before)
        // A store: no chart among its logs, at any depth.
        try FileManager.default.createDirectory(atPath: store + "/sub", withIntermediateDirectories: true)
        for inside in [store + "/chart.svg", store + "/sub/chart.svg", store + "/sub/../chart.svg"] {
            let r = navlog(["funnel", store] + Self.funnelStep + ["--svg", inside])
            #expect(r.status == 2, "\(inside): \(r.stderr)")
            #expect(r.stderr.hasPrefix("navlog: --svg \(inside) is in the input \(store)"), "\(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: dir.file("store/chart.svg")))
            #expect(!FileManager.default.fileExists(atPath: dir.file("store/sub/chart.svg")))
        }
        // Elsewhere is fine (the store again only its logs: a folder of other files is no store).
        try FileManager.default.removeItem(atPath: store + "/sub")
        let fine = navlog(["funnel", store, ndjson] + Self.funnelStep + ["--svg", dir.file("chart.svg")])
        #expect(fine.status == 0, "\(fine.stderr)")
        #expect(String(decoding: try #require(Self.bytes(dir.file("chart.svg"))), as: UTF8.self).contains("<svg"))
    }

    /// `--rejects` of `ingest` and of every `import` goes through the same
    /// check: an input under any of its names, or standard input, is refused.
    @Test func rejectsIsNeverAnInput() throws {
        let (dir, ndjson, _, _) = try Self.inputs()
        let csv = try dir.file("events.csv", "sid,at,event\ns1,2026-11-20T10:00:00Z,open\nbad\n")
        let commands: [(input: String, args: [String])] = [
            (ndjson, ["ingest", ndjson]),
            (csv, ["import", "csv", csv, "--session", "sid", "--time", "at", "--event", "event"]),
        ]
        for (input, args) in commands {
            let before = try #require(Self.bytes(input))
            for name in try Self.otherNames(of: input, in: dir) {
                let r = navlog(args + ["--store", dir.file("out"), "--rejects", name])
                #expect(r.status == 2, "\(args[0]) \(name): \(r.stderr)")
                #expect(r.stderr.hasPrefix("navlog: --rejects \(name) is the input \(input)"), "\(r.stderr)")
                #expect(Self.bytes(input) == before)
            }
            try FileManager.default.removeItem(atPath: dir.file("hard-" + URL(fileURLWithPath: input).lastPathComponent))
            try FileManager.default.removeItem(atPath: dir.file("soft-" + URL(fileURLWithPath: input).lastPathComponent))
        }
        let before = try #require(Self.bytes(ndjson))
        let piped = Self.run(navlogBinary(), ["ingest", "-", "--store", dir.file("out"), "--rejects", ndjson], stdinFile: ndjson)
        #expect(piped.status == 2, "\(piped.stderr)")
        #expect(piped.stderr.contains("--rejects \(ndjson) is standard input"), "\(piped.stderr)")
        #expect(Self.bytes(ndjson) == before)
    }

    /// `-` twice: refused as a usage error by every command that takes
    /// several inputs, before standard input is read.
    @Test func standardInputIsReadOnce() throws {
        let dir = try TemporaryDirectory()
        let text = navlog("generate", "--sessions", "2", "--seed", "3").stdout
        let commands: [[String]] = [
            ["funnel", "-", "-"] + Self.funnelStep,
            ["paths", "-", "-"],
            ["export", "events", "-", "-"],
            ["export", "screens", "-", "-"],
            ["ingest", "-", "-", "--store", dir.file("a")],
            ["import", "csv", "-", "-", "--store", dir.file("b"), "--session", "s", "--time", "t", "--event", "e"],
            ["import", "ga4", "-", "-", "--store", dir.file("c")],
            ["import", "react-navigation", "-", "-", "--store", dir.file("d")],
            ["verify", "-", "-"],
            ["diff", "-", "-"],
            ["bisect", "-", "-"],
        ]
        for args in commands {
            let r = navlog(args, stdin: text)
            #expect(r.status == 2, "\(args.joined(separator: " ")): \(r.stderr)")
            #expect(r.stderr.hasPrefix("navlog: standard input (-) can be read only once"), "\(args): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(args)")
        }
        // Once is fine.
        #expect(navlog(["funnel", "-"] + Self.funnelStep, stdin: text).status == 0)
        #expect(navlog("paths", "-", stdin: text).status == 0)
    }

    /// `repair` of a missing file is trouble, as for `info` and `verify`,
    /// and creates nothing.
    @Test func repairOfAMissingFileCreatesNothing() throws {
        let dir = try TemporaryDirectory()
        let missing = dir.file("nonexist.navlog")
        for command in ["repair", "info", "verify"] {
            let r = navlog(command, missing)
            #expect(r.status == 2, "\(command): \(r.stdout) \(r.stderr)")
            #expect(r.stderr.lowercased().contains("no such file"), "\(command): \(r.stderr)")
            #expect(!r.stdout.contains("rewritten"), "\(command): \(r.stdout)")
            #expect(!FileManager.default.fileExists(atPath: missing), "\(command) created \(missing)")
        }
    }
}

extension InputSafetyTests {
    /// Runs `navlog` with `args` on standard input opened on `path` (as a
    /// shell's `< path` does), so that the process can see which file it is.
    static func run(_ executable: String, _ args: [String], stdinFile path: String) -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        guard let input = FileHandle(forReadingAtPath: path) else { return (127, "", "cannot open \(path)") }
        process.standardInput = input
        do { try process.run() } catch { return (127, "", "cannot run \(executable): \(error)") }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
