import Foundation
import Testing
import NavLogTestSupport

/// Every input is named for what it is: a store's segment file given where
/// a log is read, and a directory that is no store, each get one line and
/// exit 2 with what to run instead.
@Suite struct InputNamingTests {
    /// A small segment store `st` and a folder `d` of a user's files (NDJSON, a log, notes).
    static func inputs() throws -> TemporaryDirectory {
        let dir = try TemporaryDirectory()
        let sample = navlog("generate", "--sessions", "5", "--seed", "4").stdout
        let ndjson = try dir.file("in.ndjson", sample)
        #expect(navlog("ingest", ndjson, "--store", dir.file("st")).status == 0)
        try FileManager.default.createDirectory(atPath: dir.file("d"), withIntermediateDirectories: false)
        _ = try dir.file("d/sessions.ndjson", sample)
        _ = try dir.file("d/notes.txt", "notes\n")
        #expect(navlog("append", dir.file("d/run-a.navlog"), stdin: sample.split(separator: "\n").prefix(3).joined(separator: "\n") + "\n").status != 2)
        return dir
    }

    @Test func aSegmentFileGivenAsALogIsNamedWithTheCommandToUse() throws {
        let dir = try Self.inputs()
        let segment = dir.file("st/00000001.nls")
        for command in [["info"], ["cat"], ["verify"], ["state"], ["replay"]] {
            let r = navlog(command + [segment])
            let lines = r.stderr.split(separator: "\n")
            #expect(r.status == 2, "\(command): \(r.stderr)")
            #expect(lines.first?.contains("\(segment): not a log: it is a segment of the store \(dir.file("st"))") == true
                    && r.stderr.contains("navlog state \(dir.file("st")) --session ID"), "\(command): \(r.stderr)")
            #expect(lines.count <= 2 && !r.stderr.contains("damaged"), "\(command): \(r.stderr)")
        }
    }

    @Test func aDirectoryThatIsNoStoreIsExit2NotAStore() throws {
        let dir = try Self.inputs()
        let d = dir.file("d")
        let empty = dir.file("empty")
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        for folder in [d, empty] {
            for args in [["funnel", folder, "--step", "tab:*"], ["paths", folder, "--after", "tab:*"], ["sessions", folder],
                         ["export", "screens", folder], ["export", "events", folder],
                         ["state", folder, "--session", "s-000001"], ["cat", folder, "--session", "s-000001"],
                         ["export", "log", folder, "--session", "s-000001", "-o", dir.file("one.navlog")],
                         ["info", folder], ["cat", folder], ["state", folder], ["replay", folder], ["blame", folder]] {
                let r = navlog(args)
                #expect(r.status == 2 && r.stderr == "navlog: \(folder): not a store (no navlog-store manifest and no version-1 logs)\n",
                        "\(args): \(r.status) \(r.stderr)")
                #expect(r.stdout.isEmpty, "\(args): \(r.stdout)")
            }
        }
        let verify = navlog("verify", d)
        #expect(verify.status == 2 && verify.stderr.hasPrefix("navlog: \(d): not a store (no navlog-store manifest and no version-1 logs)\n"),
                "\(verify.stderr)")
        // The store itself still reads.
        #expect(navlog("sessions", dir.file("st")).status == 0)
    }

    /// `reindex` of a missing path or of a directory that is no store is
    /// usage trouble (exit 2), as the exit-status table says.
    @Test func reindexOfAMissingPathOrNoStoreIsExit2() throws {
        let dir = try Self.inputs()
        let missing = navlog("reindex", dir.file("nope"))
        #expect(missing.status == 2 && missing.stderr == "navlog: \(dir.file("nope")): No such file or directory\n", "\(missing.stderr)")
        let folder = navlog("reindex", dir.file("d"))
        #expect(folder.status == 2 && folder.stderr.contains("not a store"), "\(folder.stderr)")
        #expect(navlog("reindex", dir.file("st")).status == 0)
    }

    /// A session id is at most 65,535 UTF-8 bytes (docs/events.md): a
    /// longer one is rejected at input with the reason, in canonical lines
    /// and others alike, by ingest and import; one at the limit is stored.
    @Test func anOverLongSessionIdIsRejectedWithItsReason() throws {
        let dir = try TemporaryDirectory()
        func line(_ id: String, seq: Int, canonical: Bool) -> String {
            canonical ? #"{"label":"m","scene":"main","seq":\#(seq),"session":"\#(id)","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#
                      : #"{"session": "\#(id)", "seq": \#(seq), "t": "2026-11-20T10:00:00Z", "type": "mark", "label": "m"}"#
        }
        let long = String(repeating: "x", count: 65_536), longest = String(repeating: "y", count: 65_535)
        let input = try dir.file("in.ndjson", [line(long, seq: 1, canonical: true), line(long, seq: 2, canonical: false),
                                               line(longest, seq: 1, canonical: true), line(longest, seq: 2, canonical: false)]
            .joined(separator: "\n") + "\n")
        let r = navlog("ingest", input, "--store", dir.file("st"))
        #expect(r.status == 1, "\(r.stderr.prefix(300))")
        for n in [1, 2] {
            #expect(r.stderr.contains("in.ndjson:\(n): field \"session\": is 65536 bytes long; a session id is at most 65535 bytes"),
                    "\(r.stderr.prefix(300))")
        }
        let sessions = navlog("sessions", dir.file("st"))
        #expect(sessions.status == 0 && sessions.stdout.contains(longest + "\t2\t"))
        // The same limit for an import.
        let csv = try dir.file("events.csv", "user,event,at\n\(long),screen_view,2026-11-20T10:00:00Z\n")
        let imported = navlog("import", "csv", csv, "--store", dir.file("imported"), "--session", "user", "--time", "at", "--event", "event")
        #expect(imported.status == 1 && imported.stderr.contains("a session id is at most 65535 bytes"), "\(imported.stderr.prefix(300))")
    }

    /// `sessions DIR` never lists a session that `state DIR --session` cannot
    /// find: in a version-1 store whose log was renamed (to another name of
    /// the layout's form), the session is still found by the id it holds.
    @Test func everySessionListedIsFound() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("v1")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: false)
        let lines = navlog("generate", "--sessions", "2", "--seed", "5").stdout.split(separator: "\n")
        for id in ["s-000001", "s-000002"] {
            let own = lines.filter { $0.contains("\"session\":\"\(id)\"") }.joined(separator: "\n") + "\n"
            #expect(navlog("append", store + "/" + v1Log(id), stdin: own).status == 0)
        }
        try FileManager.default.moveItem(atPath: store + "/" + v1Log("s-000002"), toPath: store + "/" + v1Log("renamed"))
        let listed = navlog("sessions", store)
        #expect(listed.status == 0 && listed.stdout.contains("s-000002\t"), "\(listed.stderr)")
        for id in ["s-000001", "s-000002"] {
            let r = navlog("state", store, "--session", id, "--json")
            #expect(r.status == 0 && r.stdout.contains("\"session\":\"\(id)\""), "\(id): \(r.stderr)")
        }
        #expect(navlog("state", store, "--session", "nobody").status == 2)
    }
}
