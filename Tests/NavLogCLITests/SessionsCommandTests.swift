import Foundation
import Testing
import NavLogTestSupport

/// `navlog sessions STORE` through the real binary: a segment store and a
/// version-1 store of the same sessions list the same rows; each filter;
/// --json by its schema.
@Suite struct SessionsCommandTests {
    static let sessions = """
        {"app":{"version":"1.0"},"seq":1,"session":"b\\tx","t":"2026-11-20T10:00:00.000Z","type":"session.start"}
        {"seq":1,"session":"a-2","t":"2026-11-20T09:00:00.000Z","label":"x","type":"mark"}
        {"seq":2,"session":"b\\tx","t":"2026-11-20T10:00:05.000Z","label":"x","type":"mark"}
        {"app":{"version":"2.1"},"seq":2,"session":"a-2","t":"2026-11-20T09:30:00.000Z","type":"session.start"}
        {"app":{"version":"2.0"},"seq":1,"session":"a-10","t":"2026-11-21T00:00:00.000Z","type":"session.start"}
        {"seq":3,"session":"a-2","t":"2026-11-20T11:00:00.000Z","label":"y","type":"mark"}

        """

    static let all = """
        session\tevents\tfirst\tlast\tapp.version
        a-10\t1\t2026-11-21T00:00:00.000Z\t2026-11-21T00:00:00.000Z\t2.0
        a-2\t3\t2026-11-20T09:00:00.000Z\t2026-11-20T11:00:00.000Z\t2.1
        b\\tx\t2\t2026-11-20T10:00:00.000Z\t2026-11-20T10:00:05.000Z\t1.0

        """

    /// The sessions (canonical lines) as a segment store and as a version-1 store (by `navlog ingest`).
    static func stores() throws -> (dir: TemporaryDirectory, segments: String, logs: String) {
        let dir = try TemporaryDirectory()
        let input = try dir.file("in.ndjson", sessions)
        try makeSegmentStore(dir.file("segments"), lines: sessions.split(separator: "\n"))
        let ingest = navlog("ingest", input, "--store", dir.file("logs"))
        #expect(ingest.status == 0, "\(ingest.stderr)")
        return (dir, dir.file("segments"), dir.file("logs"))
    }

    @Test("One row per session, sorted by id; a segment store and a version-1 store agree")
    func listsBoth() throws {
        let (dir, segments, logs) = try Self.stores()
        _ = dir
        for store in [segments, logs] {
            let r = navlog("sessions", store)
            #expect(r.status == 0 && r.stdout == Self.all, "\(store): \(r.stdout)\(r.stderr)")
        }
    }

    @Test("--id, --app-version, --since and --until filter; nothing matched is said on stderr")
    func filters() throws {
        let (dir, segments, _) = try Self.stores()
        _ = dir
        func ids(_ args: String...) -> [String] {
            let r = navlog(["sessions", segments] + args)
            #expect(r.status == 0, "\(r.stderr)")
            return r.stdout.split(separator: "\n").dropFirst().map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(ids("--id", "a-*") == ["a-10", "a-2"])
        #expect(ids("--app-version", "2.*") == ["a-10", "a-2"])
        #expect(ids("--app-version", "1.0") == ["b\\tx"])
        #expect(ids("--since", "2026-11-20T10:00:05Z") == ["a-10", "a-2", "b\\tx"])
        #expect(ids("--since", "2026-11-20T11:00:00.001Z") == ["a-10"])
        #expect(ids("--until", "1795165200000") == ["a-2"])       // 2026-11-20T09:00:00Z in ms
        #expect(ids("--since", "2026-11-20T10:00:01Z", "--until", "2026-11-20T10:30:00Z") == ["a-2", "b\\tx"])
        let none = navlog("sessions", segments, "--id", "zzz")
        #expect(none.status == 0 && none.stderr.contains("no session of 3 matches"), "\(none.stderr)")
        let bad = navlog("sessions", segments, "--since", "yesterday")
        #expect(bad.status == 2 && bad.stderr.split(separator: "\n").count == 1, "\(bad.stderr)")
        let notStore = navlog("sessions", dir.file("in.ndjson"))
        #expect(notStore.status == 2 && notStore.stderr.contains("not a store"), "\(notStore.stderr)")
    }

    @Test("--json: one object a line, valid by schemas/sessions.schema.json")
    func json() throws {
        let (dir, segments, logs) = try Self.stores()
        _ = dir
        let r = navlog("sessions", segments, "--json")
        #expect(r.status == 0 && r.stdout == navlog("sessions", logs, "--json").stdout)
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[1] == #"{"appVersion":"2.1","events":3,"first":"2026-11-20T09:00:00.000Z","last":"2026-11-20T11:00:00.000Z","session":"a-2"}"#)
        let check = run(JSONOutputTests.checker, ["sessions", "-"], stdin: Data(r.stdout.utf8))
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }
}
