import Foundation
import Testing
import NavLogTestSupport

/// Errors a user can act on (issue 23): a wrong kind of input is one line
/// that says what it is and what to give instead, through the real binary.
@Suite struct ActionableErrorTests {
    /// A store of three one-session logs and the NDJSON they came from.
    static func inputs() throws -> (dir: TemporaryDirectory, ndjson: String, store: String, log: String) {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        return (dir, ndjson, store, store + "/" + v1Log("s-a"))
    }

    /// The one line on stderr, with exit 2.
    static func expectOneLine(_ r: (status: Int32, stdout: String, stderr: String), _ text: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(r.status == 2, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)", sourceLocation: sourceLocation)
        #expect(r.stderr.contains(text), "\(r.stderr)", sourceLocation: sourceLocation)
    }

    @Test func aBinaryFileIsNeitherALogNorNDJSON() throws {
        let (dir, _, store, log) = try Self.inputs()
        let binary = dir.file("ls-copy.navlog")
        try FileManager.default.copyItem(atPath: "/bin/ls", toPath: binary)
        for args in [["state", binary], ["replay", binary], ["funnel", binary, "--step", "*"], ["ingest", binary, "--store", dir.file("s2")]] {
            let r = run(navlogBinary(), args)
            Self.expectOneLine(r, "ls-copy.navlog: not a navlog file and not NDJSON (binary data at byte 4)")
        }
        // A log cut inside its magic number is binary too.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let cut = dir.file("cut.navlog")
        try bytes.prefix(3).write(to: URL(fileURLWithPath: cut))
        Self.expectOneLine(navlog("state", cut), "cut.navlog: not a navlog file and not NDJSON (binary data at byte 0)")
        // A log on standard input: say to give its path.
        let piped = run(navlogBinary(), ["state", "-"], stdin: bytes)
        Self.expectOneLine(piped, "<stdin>: a navlog log, which cannot be read from standard input: give its path")
        // A log given to ingest: its events are stored (a device's log of one session).
        let ingested = navlog("ingest", log, "--store", dir.file("s3"))
        #expect(ingested.status == 0 && ingested.stderr == "", "\(ingested.stderr)")
        #expect(try SegmentStoreContents.lines(dir.file("s3")).keys.sorted() == ["s-a"])
        _ = store
    }

    @Test func aLineOfDamageInTextIsStillRejectedLineByLine() throws {
        let (dir, ndjson, _, _) = try Self.inputs()
        var text = try String(contentsOfFile: ndjson, encoding: .utf8)
        text += "{\"session\":\"s-a\",\u{1}\"t\":1}\n"
        let damaged = try dir.file("damaged.ndjson", text)
        let r = navlog("funnel", damaged, "--step", "*")
        #expect(r.status == 1)
        #expect(r.stderr.contains("damaged.ndjson:\(text.split(separator: "\n").count): invalid JSON"), "\(r.stderr)")
    }

    @Test func aDirectoryOrStandardInputWhereALogIsRead() throws {
        let (dir, _, store, _) = try Self.inputs()
        let directory = "store: is a directory, not a log or NDJSON file (the sessions of a store are read by funnel, paths and export)"
        for command in ["info", "cat", "state", "replay"] {
            Self.expectOneLine(navlog(command, store), "store: is a directory (a store): choose one of its sessions with --session ID")
        }
        let verify = navlog("verify", store)
        #expect(verify.status == 2 && verify.stderr.contains(directory), "\(verify.stderr)")
        _ = dir
        for command in ["info", "cat"] {
            Self.expectOneLine(navlog(command, "-"), "-: a log cannot be read from standard input; give its path")
        }
    }

    @Test func aSwiftUIPathImportOfAnotherFileSaysWhatItExpected() throws {
        let dir = try TemporaryDirectory()
        let expected = "not a NavigationPath.CodableRepresentation (one JSON array of type-name and JSON strings a file): "
        let generated = navlog("generate", "--sessions", "200")
        #expect(generated.status == 0 && generated.stdout.utf8.count > 1 << 20)
        let cases: [(String, String, String)] = [
            ("big.ndjson", generated.stdout, "\(generated.stdout.utf8.count) bytes, over the limit of 1048576 for one file"),
            ("some.ndjson", generated.stdout.split(separator: "\n").prefix(3).joined(separator: "\n"),
             "more than one JSON value (NDJSON is read by 'navlog ingest')"),
            ("object.json", #"{"a":1}"#, "a JSON object"),
        ]
        for (name, text, reason) in cases {
            let file = try dir.file(name, text)
            let r = navlog("import", "swiftui-path", file, "--store", dir.file("logs"), "--stack", "home")
            #expect(r.status == 1)
            #expect(r.stderr.hasPrefix("navlog: \(file):1: \(expected)\(reason)\n"), "\(r.stderr)")
        }
    }
}
