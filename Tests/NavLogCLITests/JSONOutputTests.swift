import Foundation
import Testing
import NavLogTestSupport

/// `--json` of `info`, `verify`, `ingest`, every `import`, `paths` and
/// `funnel` through the real binary: one line on standard output, valid by
/// its schema (`schemas/KIND.schema.json`, checked with tools/check-schemas),
/// holding what the text form says, with the exit status of the text form.
@Suite("--json outputs")
struct JSONOutputTests {
    typealias Result = (status: Int32, stdout: String, stderr: String)
    static let checker = repositoryRoot.appendingPathComponent("tools/check-schemas").path

    /// The object a command printed: one line, valid by `schemas/<kind>.schema.json`.
    static func object(_ kind: String, _ r: Result, sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        #expect(r.stdout.hasSuffix("\n") && r.stdout.dropLast().firstIndex(of: "\n") == nil,
                "not one line: \(r.stdout)", sourceLocation: sourceLocation)
        let check = run(checker, [kind, "-"], stdin: Data(r.stdout.utf8))
        #expect(check.status == 0, "check-schemas \(kind): \(check.stdout)\(check.stderr)", sourceLocation: sourceLocation)
        return try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], sourceLocation: sourceLocation)
    }

    /// The `key: value` lines of `navlog info`.
    static func fields(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            out[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return out
    }

    /// A store holding generated sessions; its logs, sorted.
    static func store(_ dir: TemporaryDirectory, sessions: Int = 2, events: String? = nil) throws -> [String] {
        var args = ["generate", "--sessions", "\(sessions)", "--seed", "3"]
        if let events { args += ["--events-per-session", events] }
        let input = try dir.file("generated.ndjson", run(navlogBinary(), args).stdout)
        // A store of logs (version 1, read as before): ingest's sessions written out one log each.
        #expect(navlog("ingest", input, "--store", dir.file("segments")).status == 0)
        return try SegmentStoreContents.exportLogs(dir.file("segments"), into: dir.file("store"))
    }

    /// Flips a byte a third of the way into a file.
    static func damage(_ path: String) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[bytes.count / 3] ^= 0x40
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    // MARK: info

    @Test func infoHoldsEveryFieldOfTheText() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.store(dir)[0]
        let text = Self.fields(navlog("info", log).stdout)
        let r = navlog("info", log, "--json")
        #expect(r.status == 0, "\(r.stderr)")
        let o = try Self.object("info", r)
        #expect(o["file"] as? String == text["file"])
        let format = try #require(o["format"] as? [String: Int])
        #expect("\(format["major"]!).\(format["minor"]!)" == text["format"])
        #expect(o["session"] as? String == text["session"])
        #expect((o["events"] as? Int).map(String.init) == text["events"])
        #expect("\(o["firstSeq"]!)…\(o["lastSeq"]!)" == text["seq"])
        #expect("\(o["minT"]!) … \(o["maxT"]!)" == text["time"])
        #expect((o["fileBytes"] as? Int).map(String.init) == text["file bytes"])
        #expect((o["contentBytes"] as? Int).map(String.init) == text["content bytes"])
        let compression = try #require(text["compression"]?.dropLast())   // "2.40×"
        #expect(r.stdout.contains(#""compression":\#(compression),"#), "\(r.stdout)")
        #expect((o["blocks"] as? Int).map(String.init) == text["blocks"])
        #expect((o["checkpoints"] as? Int).map(String.init) == text["checkpoints"])
        #expect(o["index"] as? String == "footer" && text["index"] == "footer (closed)")
        #expect(o["tail"] is NSNull && text["tail"] == nil)
    }

    /// A log cut short: the tail the reader left out, and the text's exit status.
    @Test func infoOfACutLogHasItsTail() throws {
        let dir = try TemporaryDirectory()
        let log = try Self.store(dir, sessions: 1, events: "3000-3000")[0]
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        try bytes.prefix(bytes.count * 2 / 3).write(to: URL(fileURLWithPath: log))
        let text = navlog("info", log)
        let r = navlog("info", log, "--json")
        #expect(r.status == text.status && r.stderr == text.stderr)
        let o = try Self.object("info", r)
        let tail = try #require(o["tail"] as? [String: Any], "\(r.stdout)")
        let offset = try #require(tail["offset"] as? Int)
        #expect(Self.fields(text.stdout)["tail"]?.hasPrefix("byte \(offset), ") == true, "\(text.stdout)")
        #expect(tail["droppedBytes"] as? Int == bytes.count * 2 / 3 - offset)
        #expect(o["index"] as? String == "walked")
        #expect(o["events"] as? Int == Int(Self.fields(text.stdout)["events"] ?? ""))
    }

    // MARK: verify

    @Test func verifyHasOneEntryPerLogWithItsStatusAndDamage() throws {
        let dir = try TemporaryDirectory()
        let logs = try Self.store(dir, sessions: 2, events: "3000-3000")
        try Self.damage(logs[1])
        let missing = dir.file("missing.navlog")
        let text = navlog("verify", logs[0], logs[1], missing)
        let r = navlog("verify", logs[0], logs[1], missing, "--json")
        #expect(r.status == 2 && text.status == 2)
        #expect(r.stderr == text.stderr, "errors stay on stderr, as without --json")
        let o = try Self.object("verify", r)
        #expect(o["ok"] as? Int == 1 && o["damaged"] as? Int == 1 && o["trouble"] as? Int == 1)
        let files = try #require(o["files"] as? [[String: Any]])
        try #require(files.count == 3)
        #expect(files.map { $0["file"] as? String } == [logs[0], logs[1], missing])
        #expect(files.map { $0["status"] as? String } == ["ok", "damaged", "trouble"])
        // ok: what the text says, field for field.
        let okLine = try #require(text.stdout.split(separator: "\n").first.map(String.init))
        #expect(okLine == "\(logs[0]): ok, \(files[0]["events"]!) events, \(files[0]["blocks"]!) blocks, \(files[0]["checkpoints"]!) checkpoints",
                "\(okLine)")
        #expect(files[0]["closed"] as? Bool == true && (files[0]["problems"] as? [Any])?.isEmpty == true)
        // damaged: every problem the text lists, with its kind and byte offset.
        let problems = try #require(files[1]["problems"] as? [[String: Any]])
        let problemLines = text.stdout.split(separator: "\n").filter { $0.hasPrefix("\(logs[1]): byte ") }
        #expect(problems.count == problemLines.count && !problems.isEmpty)
        for (problem, line) in zip(problems, problemLines) {
            #expect(problem["kind"] as? String == "corrupt")
            let offset = try #require(problem["offset"] as? Int)
            #expect(line.hasPrefix("\(logs[1]): byte \(offset), "), "\(line)")
            #expect(line.hasSuffix(": " + (problem["reason"] as? String ?? "?")), "\(line)")
        }
        #expect(text.stdout.contains("\(logs[1]): \(problems.count) problem"))
        #expect(text.stdout.contains("; \(files[1]["events"]!) events verified"))
        // trouble: the error, as on stderr.
        let error = try #require(files[2]["error"] as? [String: Any])
        #expect(error["kind"] as? String == "io")
        #expect(r.stderr.contains("navlog: \(missing): \(error["reason"] as? String ?? "?")\n"), "\(r.stderr)")
        // Exit statuses unchanged: 1 damaged, 0 all intact.
        let damaged = navlog("verify", logs[0], logs[1], "--json")
        #expect(damaged.status == 1)
        #expect(try Self.object("verify", damaged)["damaged"] as? Int == 1)
        let intact = navlog("verify", logs[0], "--json")
        #expect(intact.status == 0 && intact.stderr.isEmpty)
        #expect(try Self.object("verify", intact)["ok"] as? Int == 1)
    }

    // MARK: ingest

    @Test func ingestSummaryIsOneObjectOnStandardOutput() throws {
        let dir = try TemporaryDirectory()
        let generated = navlog("generate", "--sessions", "3", "--seed", "4").stdout
        let events = generated.split(separator: "\n").count
        let input = try dir.file("in.ndjson", generated + "\n{not json\n")
        let text = navlog("ingest", input, "--store", dir.file("a"), "--rejects", dir.file("a.rejects"))
        let r = navlog("ingest", input, "--store", dir.file("b"), "--rejects", dir.file("b.rejects"), "--json")
        #expect(text.status == 1 && r.status == 1)
        #expect(text.stdout == "stored \(events) events of 3 sessions (3 new) in \(dir.file("a")); 1 line rejected\n")
        #expect(r.stderr == text.stderr.replacingOccurrences(of: "a.rejects", with: "b.rejects"), "rejections and errors stay on stderr")
        let o = try Self.object("ingest", r)
        #expect(o["stored"] as? Int == events && o["sessions"] as? Int == 3 && o["newSessions"] as? Int == 3)
        #expect(o["rejected"] as? Int == 1 && o["rejectsNotCopied"] as? Int == 0)
        #expect(o["lines"] as? Int == events + 2 && o["blankLines"] as? Int == 1)
        #expect(o["store"] as? String == dir.file("b") && o["rejectsFile"] as? String == dir.file("b.rejects"))
        #expect(o["stopped"] is NSNull && o["failure"] is NSNull)
        // Again into the same store (a stored session goes on with an explicit seq): no new session; no rejects file.
        let again = try dir.file("again.ndjson", #"{"session":"s-000001","seq":100000,"t":"2026-11-20T11:00:00Z","type":"mark","label":"m"}"# + "\n")
        let r2 = navlog("ingest", again, "--store", dir.file("b"), "--json")
        #expect(r2.status == 0 && r2.stderr.isEmpty)
        let o2 = try Self.object("ingest", r2)
        #expect(o2["stored"] as? Int == 1 && o2["sessions"] as? Int == 1 && o2["newSessions"] as? Int == 0)
        #expect(o2["rejectsFile"] is NSNull)
        // The first input again: every event already stored, nothing done (its bad line still rejected).
        let r3 = navlog("ingest", input, "--store", dir.file("b"), "--json")
        #expect(r3.status == 1)
        let o3 = try Self.object("ingest", r3)
        #expect(o3["stored"] as? Int == 0 && o3["duplicates"] as? Int == events && o3["rejected"] as? Int == 1)
    }

    /// An ingest that fails part-way (on an input that cannot be read, after
    /// one that was): the object says what was stored and why it stopped; exit 2.
    @Test func aFailedIngestPrintsItsObjectWithTheFailure() throws {
        let dir = try TemporaryDirectory()
        let good = try dir.file("good.ndjson", #"{"session":"s-000001","t":"2026-11-20T11:00:00Z","type":"mark","label":"late"}"# + "\n")
        try FileManager.default.createDirectory(atPath: dir.file("unreadable"), withIntermediateDirectories: false)
        let r = navlog("ingest", good, dir.file("unreadable"), "--store", dir.file("store"), "--json")
        #expect(r.status == 2)
        let o = try Self.object("ingest", r)
        let failure = try #require(o["failure"] as? String, "\(r.stdout)")
        #expect(r.stderr == "navlog: \(failure)\n")
        #expect(failure.hasPrefix(dir.file("unreadable") + ": "))
        #expect(o["stored"] as? Int == 1 && o["duplicates"] as? Int == 0)
    }

    /// Ctrl-C: the object names the last line read and the signal; exit 130 as without --json.
    @Test func aStoppedIngestSaysWhereAndWhy() throws {
        let dir = try TemporaryDirectory()
        let lines = navlog("generate", "--sessions", "150", "--seed", "9", "--interleave").stdout
            .split(separator: "\n").map { String($0) + "\n" }
        #expect(lines.count > 6_000)
        let (exited, status, stdout, stderr) = try IngestCommandTests.interruptedIngest(lines, store: dir.file("store"), extra: ["--json"])
        #expect(exited && status == 130, "\(stderr)")
        let o = try Self.object("ingest", (status, stdout, stderr))
        let stopped = try #require(o["stopped"] as? [String: Any], "\(stdout)")
        #expect(stopped["signal"] as? String == "SIGINT" && stopped["exitStatus"] as? Int == 130 && stopped["input"] as? String == "-")
        let line = try #require(stopped["line"] as? Int)
        #expect(stderr.contains("stopped: read up to <stdin>:\(line); nothing after it was read"), "\(stderr)")
        #expect(o["stored"] as? Int == line && o["lines"] as? Int == line)
    }

    // MARK: import

    /// Every import format: the object holds what the text summary says.
    @Test(arguments: [
        ["ga4", "ga4.ndjson"],
        ["react-navigation", "react-navigation.ndjson"],
        ["swiftui-path", "swiftui-path.json", "--stack", "main", "--session", "s-1", "--time", "2026-11-20T10:00:00Z"],
        ["csv", "events.csv", "--session", "user_id,session_id", "--time", "timestamp", "--event", "event", "--screens", "screen_view", "--screen-name", "screen"],
    ])
    func importSummaryMatchesTheText(args: [String]) throws {
        let dir = try TemporaryDirectory()
        let input = ImportCommandTests.fixture(args[1])
        let rest = Array(args.dropFirst(2))
        let text = run(navlogBinary(), ["import", args[0], input, "--store", dir.file("a")] + rest)
        let r = run(navlogBinary(), ["import", args[0], input, "--store", dir.file("b"), "--json"] + rest)
        #expect(r.status == text.status, "\(r.stderr)")
        let o = try Self.object("import", r)
        func n(_ key: String) -> Int { o[key] as? Int ?? -1 }
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        #expect(text.stdout == "stored \(plural(n("stored"), "event")) of \(plural(n("sessions"), "session")) (\(n("newSessions")) new) "
                + "from \(plural(n("records"), "record")) in \(dir.file("a")); \(plural(n("rejected"), "record")) rejected\n", "\(text.stdout)")
        #expect(n("stored") > 0)
        #expect(o["store"] as? String == dir.file("b") && o["rejectsFile"] is NSNull)
    }

    @Test func importRejectsAreCountedAndKept() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("in.csv", "sid,event,at\ns1,open,2026-11-20T10:00:00Z\ns1,buy,soon\n")
        let rejects = dir.file("rejects.csv")
        let r = navlog("import", "csv", input, "--store", dir.file("logs"), "--rejects", rejects,
                       "--session", "sid", "--time", "at", "--event", "event", "--json")
        #expect(r.status == 1)
        #expect(r.stderr.hasSuffix("navlog: 1 record rejected; kept in \(rejects)\n"), "\(r.stderr)")
        let o = try Self.object("import", r)
        #expect(o["records"] as? Int == 2 && o["stored"] as? Int == 1 && o["rejected"] as? Int == 1)
        #expect(o["rejectsFile"] as? String == rejects && o["rejectsNotCopied"] as? Int == 0)
    }

    // MARK: paths and funnel

    @Test(arguments: [
        ["paths", "--after", "Home"],
        ["funnel", "--step", "Recipe/*", "--step", "mark:purchase", "--by", "app.version"],
    ])
    func jsonIsFormatJSON(args: [String]) throws {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        _ = dir
        let rest = Array(args.dropFirst())
        let format = run(navlogBinary(), [args[0], ndjson, store] + rest + ["--format", "json"])
        let json = run(navlogBinary(), [args[0], ndjson, store] + rest + ["--json"])
        #expect(json.status == 0 && format.status == 0, "\(json.stderr)")
        #expect(json.stdout == format.stdout)
        _ = try Self.object(args[0], json)
        #expect(run(navlogBinary(), [args[0], ndjson] + rest + ["--json", "--format", "json"]).status == 0)
        for other in ["table", "csv"] {
            let conflict = run(navlogBinary(), [args[0], ndjson] + rest + ["--json", "--format", other])
            #expect(conflict.status == 2 && conflict.stdout.isEmpty)
            #expect(conflict.stderr.hasPrefix("navlog: \(args[0]): --json is --format json; it cannot go with --format \(other)"), "\(conflict.stderr)")
        }
    }

    // MARK: The schemas say no

    /// Each schema rejects its real output with a field missing, a number
    /// written as a string, an unknown field, or (verify) a bad status.
    @Test func theSchemasRejectBrokenOutputs() throws {
        let dir = try TemporaryDirectory()
        let logs = try Self.store(dir)
        let input = try dir.file("in.ndjson", #"{"session":"x","t":"2026-11-20T10:00:00Z","type":"mark","label":"m"}"# + "\n")
        let outputs: [(kind: String, output: String, number: String)] = [
            ("info", navlog("info", logs[0], "--json").stdout, "events"),
            ("verify", navlog("verify", logs[0], "--json").stdout, "ok"),
            ("ingest", navlog("ingest", input, "--store", dir.file("other"), "--json").stdout, "stored"),
            ("import", navlog("import", "ga4", ImportCommandTests.fixture("ga4.ndjson"), "--store", dir.file("ga4"), "--json").stdout, "records"),
        ]
        func text(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        for (kind, output, number) in outputs {
            let object = try Self.object(kind, (0, output, ""))
            try #require(object[number] is Int, "\(kind): \(number)")
            var missing = object
            missing[number] = nil
            var asString = object
            asString[number] = "\(object[number]!)"
            var extra = object
            extra["bogus"] = 1
            for broken in [missing, asString, extra] {
                let brokenText = try text(broken)
                let check = run(Self.checker, ["--expect-invalid", kind, "-"], stdin: Data(brokenText.utf8))
                #expect(check.status == 0, "\(kind): accepted \(brokenText)\(check.stdout)")
            }
        }
        var verify = try Self.object("verify", navlog("verify", logs[0], "--json"))
        var files = try #require(verify["files"] as? [[String: Any]])
        files[0]["status"] = "damaged"   // damaged with no problem
        verify["files"] = files
        #expect(run(Self.checker, ["--expect-invalid", "verify", "-"], stdin: Data(try text(verify).utf8)).status == 0)
    }
}
