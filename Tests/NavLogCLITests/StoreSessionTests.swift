import Foundation
import NavLogCore
import NavLogStore
import NavLogTestSupport
import Testing

/// `STORE --session ID` (docs/commands.md): every command that reads one session
/// gives on a session of a segment store byte for byte what it gives on that
/// session written as its own `.navlog` log.
@Suite struct StoreSessionTests {
    /// A segment store of `sessions` generated sessions (small blocks,
    /// commits and K, so a session spans several of each), and each
    /// session's lines.
    static func makeStore(_ dir: TemporaryDirectory, sessions: Int = 6, events: String = "40-120",
                          name: String = "store") throws -> (store: String, lines: [String: [String]], ids: [String]) {
        let sample = dir.file("\(name).ndjson")
        let generated = navlog("generate", "--sessions", String(sessions), "--seed", "5",
                               "--events-per-session", events, "--interleave", "-o", sample)
        #expect(generated.status == 0, "\(generated.stderr)")
        var lines: [String: [String]] = [:]
        var ids: [String] = []
        let store = dir.file(name)
        let writer = try SegmentWriter(store: SegmentStore.create(at: store),
                                       options: SegmentWriterOptions(blockTarget: 4 << 10, checkpointInterval: 16,
                                                                     commitTarget: 16 << 10, segmentTarget: 64 << 10))
        for line in try String(contentsOfFile: sample, encoding: .utf8).split(separator: "\n") {
            let id = try EventParser.parse(String(line)).session
            if lines[id] == nil { ids.append(id) }
            lines[id, default: []].append(String(line))
            _ = try writer.add(Array(line.utf8))
        }
        try writer.close()
        return (store, lines, ids)
    }

    /// Writes one session's lines as a log with `navlog append`.
    static func makeLog(_ dir: TemporaryDirectory, _ lines: [String], name: String) -> String {
        let log = dir.file(name)
        let appended = navlog("append", log, stdin: lines.joined(separator: "\n") + "\n")
        #expect(appended.status == 0, "\(appended.stderr)")
        return log
    }

    @Test func everyReadingCommandMatchesTheSessionsLog() throws {
        let dir = try TemporaryDirectory()
        let (store, lines, ids) = try Self.makeStore(dir)
        for id in ids.prefix(3) {
            let log = Self.makeLog(dir, lines[id]!, name: "\(id).navlog")
            let middle = String(try EventParser.parse(lines[id]![lines[id]!.count / 2]).seq)
            let instant = try EventParser.parse(lines[id]![lines[id]!.count / 3]).t.rfc3339
            let commands: [[String]] = [
                ["cat"], ["cat", "--from", "3", "--to", middle], ["cat", "--type", "stack.push"],
                ["state"], ["state", "--at", middle, "--json"], ["state", "--at", "17"], ["state", "--at", "0"], ["state", "--at", instant],
                ["replay"], ["replay", "--json", "--from", "5"], ["blame", "--at", middle, "--json"], ["blame"],
                ["export", "swiftui-path", "--stack", "home"],
            ]
            for command in commands {
                let onLog = runForBytes(navlogBinary(), command.prefix(command[0] == "export" ? 2 : 1) + [log] + command.dropFirst(command[0] == "export" ? 2 : 1))
                let onStore = runForBytes(navlogBinary(), command.prefix(command[0] == "export" ? 2 : 1) + [store, "--session", id]
                                          + command.dropFirst(command[0] == "export" ? 2 : 1))
                #expect(onStore.status == onLog.status, "\(command) \(id): \(onStore.stderr)")
                #expect(onStore.stdout == onLog.stdout, "\(command) \(id)")
                #expect(!onLog.stdout.isEmpty || onLog.status != 0, "\(command)")
            }
            let info = navlog("info", store, "--session", id, "--json")
            #expect(info.status == 0, "\(info.stderr)")
            let facts = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as! [String: Any]
            #expect(facts["events"] as? Int == lines[id]!.count)
            #expect(facts["session"] as? String == id)
            #expect((facts["checkpoints"] as? Int ?? 0) == lines[id]!.count / 16)
            SchemaTests.check(["info", "-"], stdin: Data(info.stdout.utf8))
        }
    }

    @Test func diffAndBisectTakeStoreSides() throws {
        let dir = try TemporaryDirectory()
        let (store, lines, ids) = try Self.makeStore(dir)
        let (a, b) = (ids[0], ids[1])
        let logA = Self.makeLog(dir, lines[a]!, name: "a.navlog"), logB = Self.makeLog(dir, lines[b]!, name: "b.navlog")
        for command in [["diff"], ["diff", "--at", "20"], ["bisect"], ["bisect", "--align", "seq"], ["bisect", "--context", "2"]] {
            let onLogs = navlog(command + [logA, logB])
            let onStore = navlog(command + [store, store, "--session-a", a, "--session-b", b])
            let mixed = navlog(command + [store, logB, "--session-a", a])
            #expect(onLogs.status == 1, "\(command): \(onLogs.stderr)")
            #expect(onStore.status == onLogs.status && onStore.stdout == onLogs.stdout, "\(command): \(onStore.stderr)")
            #expect(mixed.status == onLogs.status && mixed.stdout == onLogs.stdout, "\(command): \(mixed.stderr)")
        }
        // The same session on both sides: no divergence, found through the checkpoints.
        let same = navlog("bisect", store, logA, "--session", a)
        #expect(same.status == 0, "\(same.stderr)")
        let selfSame = navlog("bisect", store, store, "--session", a, "--stats")
        #expect(selfSame.status == 0 && selfSame.stdout.contains("checkpoints' chain hashes"), "\(selfSame.stdout)\(selfSame.stderr)")
        #expect(selfSame.stdout.hasPrefix(same.stdout.split(separator: "\n")[0] + "\n"))
    }

    /// A session whose copy parts from it late: the chains settle the
    /// prefix, and the answer is the logs' answer.
    @Test func bisectOfALateDivergenceReadsFewBlocks() throws {
        let dir = try TemporaryDirectory()
        let (store, lines, ids) = try Self.makeStore(dir, sessions: 1, events: "600-600")
        let id = ids[0]
        var copy = lines[id]!
        let part = copy.count - 7
        let event = try EventParser.parse(copy[part])
        copy[part] = #"{"seq":\#(event.seq),"session":"copy","stack":"zz","t":"\#(event.t.rfc3339)","type":"stack.push","value":{"id":"x","type":"Odd"}}"#
        copy = try copy.map { line in
            var e = try EventParser.parse(line)
            e.session = "copy"
            return e.canonicalLine
        }
        let writer = try SegmentWriter(store: SegmentStore.open(at: store, writing: true),
                                       options: SegmentWriterOptions(blockTarget: 4 << 10, checkpointInterval: 16,
                                                                     commitTarget: 16 << 10, segmentTarget: 64 << 10))
        for line in copy { _ = try writer.add(Array(line.utf8)) }
        try writer.close()
        let logA = Self.makeLog(dir, lines[id]!, name: "a.navlog"), logB = Self.makeLog(dir, copy, name: "b.navlog")
        let onLogs = navlog("bisect", logA, logB, "--json")
        let onStore = navlog("bisect", store, store, "--session-a", id, "--session-b", "copy", "--json")
        #expect(onLogs.status == 1 && onStore.status == 1, "\(onStore.stderr)")
        let x = try JSONSerialization.jsonObject(with: Data(onLogs.stdout.utf8)) as! [String: Any]
        let y = try JSONSerialization.jsonObject(with: Data(onStore.stdout.utf8)) as! [String: Any]
        #expect(y["position"] as? Int == x["position"] as? Int)
        #expect(y["position"] as? Int == part + 1)
        #expect(y["method"] as? String == "checkpoints")
        SchemaTests.check(["bisect", "-"], stdin: Data(onStore.stdout.utf8))
        #expect((y["skippedEvents"] as? Int ?? 0) >= part - 32)
        let blocks = y["blocksDecompressed"] as? [String: Int] ?? [:]
        let total = try FileManager.default.contentsOfDirectory(atPath: store).count
        #expect((blocks["a"] ?? 99) <= 12 && (blocks["b"] ?? 99) <= 12, "\(blocks) of a store with \(total) files")
        // Text output equals the logs' (inputs aside).
        let text = navlog("bisect", store, store, "--session-a", id, "--session-b", "copy")
        #expect(text.stdout == navlog("bisect", logA, logB).stdout)
    }

    @Test func unknownSessionAndMissingSessionAreRefused() throws {
        let dir = try TemporaryDirectory()
        let (store, _, _) = try Self.makeStore(dir, sessions: 2, events: "5-9")
        for command in [["cat"], ["info"], ["state"], ["replay"], ["blame"], ["export", "swiftui-path", "--stack", "home"]] {
            let unknown = navlog(command + [store, "--session", "nope"])
            #expect(unknown.status == 2)
            #expect(unknown.stderr == "navlog: \(store): no session \"nope\"\n" || unknown.stderr == "\(store): no session \"nope\"\n",
                    "\(command): \(unknown.stderr)")
            let missing = navlog(command + [store])
            #expect(missing.status == 2, "\(command)")
            #expect(missing.stderr.contains("--session") && missing.stderr.split(separator: "\n").count == 1, "\(command): \(missing.stderr)")
        }
        let diff = navlog("diff", store, store)
        #expect(diff.status == 2 && diff.stderr.contains("--session"))
    }

    @Test func exportLogRoundTrips() throws {
        let dir = try TemporaryDirectory()
        let (store, lines, ids) = try Self.makeStore(dir, sessions: 3, events: "30-80")
        let out = dir.file("one.navlog")
        let exported = navlog("export", "log", store, "--session", ids[1], "-o", out)
        #expect(exported.status == 0, "\(exported.stderr)")
        #expect(navlog("verify", out).status == 0)
        let fromLog = navlog("cat", out), fromStore = navlog("cat", store, "--session", ids[1])
        #expect(fromLog.stdout == fromStore.stdout)
        #expect(fromLog.stdout == lines[ids[1]]!.joined(separator: "\n") + "\n")
        // An output inside the store, or an existing file, is refused.
        let inside = navlog("export", "log", store, "--session", ids[1], "-o", store + "/x.navlog")
        #expect(inside.status == 2 && inside.stderr.contains("store"), "\(inside.stderr)")
        let again = navlog("export", "log", store, "--session", ids[1], "-o", out)
        #expect(again.status == 2 && again.stderr.contains("exists"), "\(again.stderr)")
        let missing = navlog("export", "log", store, "-o", dir.file("two.navlog"))
        #expect(missing.status == 2 && missing.stderr.contains("--session"))
    }

    @Test func versionOneStoreSessions() throws {
        let dir = try TemporaryDirectory()
        let (_, lines, ids) = try Self.makeStore(dir, sessions: 2, events: "20-30")
        let v1 = dir.file("v1")
        try FileManager.default.createDirectory(atPath: v1, withIntermediateDirectories: true)
        for id in ids {
            let store = try VersionOneStore(directory: v1)
            let writer = try store.openWriter(forSession: id)
            for line in lines[id]! { try writer.append(line: Array(line.utf8)) }
            try writer.close()
        }
        let log = Self.makeLog(dir, lines[ids[1]]!, name: "one.navlog")
        for command in [["cat"], ["state", "--json"], ["replay"], ["info"]] {
            let onStore = navlog(command + [v1, "--session", ids[1]])
            #expect(onStore.status == 0, "\(command): \(onStore.stderr)")
            if command != ["info"] { #expect(onStore.stdout == navlog(command + [log]).stdout, "\(command)") }
        }
        let unknown = navlog("state", v1, "--session", "nope")
        #expect(unknown.status == 2 && unknown.stderr.contains("no session \"nope\""))
    }
}
