import Foundation
import NavLogCore
import Testing
import NavLogTestSupport

/// End-to-end tests of `navlog import …` and `navlog export swiftui-path`,
/// run as the real binary on the fixtures in Tests/Fixtures/imports.
@Suite struct ImportCommandTests {
    static func fixture(_ name: String) -> String {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/imports/\(name)").path
    }

    /// The sessions of a (segment) store, each written out as a log of its
    /// own beside the store (the reading commands' `STORE --session ID` is
    /// tested with them): their paths, named by session as schemas/store.md names them.
    static func logs(in store: String) throws -> [String] {
        try SegmentStoreContents.exportLogs(store, into: store + ".logs")
    }

    static func stateJSON(_ log: String, at: String = "end") throws -> [String: Any] {
        let r = navlog("state", log, "--at", at, "--json")
        #expect(r.status == 0, "\(r.stderr)")
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
    }

    static func screen(_ log: String) throws -> String? {
        let scenes = try stateJSON(log)["scenes"] as? [String: Any]
        return (scenes?["main"] as? [String: Any])?["screen"] as? String
    }

    @Test(arguments: ["swiftui-path", "react-navigation", "ga4", "csv"])
    func everyFormatsHelpHasAnExample(format: String) {
        let r = navlog("import", format, "--help")
        #expect(r.status == 0)
        #expect(r.stdout.contains("Example"))
        #expect(r.stdout.contains("navlog import \(format)"))
        let e = navlog("export", "swiftui-path", "--help")
        #expect(e.stdout.contains("navlog export swiftui-path"))
    }

    @Test func ga4IntoAStoreAndAgainStoresNothing() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("logs")
        let r = navlog("import", "ga4", Self.fixture("ga4.ndjson"), "--store", store)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == "stored 9 events of 3 sessions (3 new) from 6 records in \(store); 0 records rejected\n")
        let logs = try Self.logs(in: store)
        #expect(logs.count == 3)
        let first = try #require(logs.first { $0.contains("A1B2C3") })
        #expect(try Self.screen(first) == "RecipeViewController")
        #expect(navlog("cat", first, "--type", "mark").stdout.contains(#""label":"purchase""#))
        // Again: the same events at the same seqs, all already stored (no second session.start).
        let again = navlog("import", "ga4", Self.fixture("ga4.ndjson"), "--store", store)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "stored 0 events of 0 sessions (0 new) from 6 records in \(store); 0 records rejected; 9 events already stored\n")
        #expect(try Self.logs(in: store).count == 3)
        #expect(try Self.stateJSON(first)["seq"] as? Int == 5)
    }

    @Test func csvWithRejectsKeepsTheHeaderAndTheBadRecordsVerbatim() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("in.csv", "sid,event,at,screen\r\ns1,screen_view,2026-11-20T10:00:00Z,Home\r\ns1,screen_view,2026-11-20T10:00:01Z,\"Re\"cipe\"\r\ns1,purchase,soon,\r\n\r\ns1,screen_view,2026-11-20T10:00:02Z,\"Check\r\nout\"\r\ns2,x,1795168800000\r\n")
        let rejects = dir.file("rejects.csv")
        let r = navlog("import", "csv", input, "--store", dir.file("logs"), "--rejects", rejects,
                       "--session", "sid", "--time", "at", "--event", "event", "--screens", "screen_*", "--screen-name", "screen")
        #expect(r.status == 1)
        #expect(r.stderr == """
            navlog: \(input):3: field "field 4": text after a closing quote
            navlog: \(input):4: field "at": not a time: "soon" (RFC 3339, YYYY-MM-DD HH:MM:SS in UTC, or integer ms)
            navlog: \(input):8: field "(record)": 3 fields, the header has 4
            navlog: 3 records rejected; kept in \(rejects)

            """)
        #expect(try String(contentsOfFile: rejects, encoding: .utf8) == "sid,event,at,screen\r\ns1,screen_view,2026-11-20T10:00:01Z,\"Re\"cipe\"\r\ns1,purchase,soon,\r\ns2,x,1795168800000\r\n")
        let logs = try Self.logs(in: dir.file("logs"))
        #expect(logs.count == 1)
        #expect(try Self.screen(logs[0]) == "Check\r\nout")
        // The rejects file is itself an importable CSV.
        #expect(navlog("import", "csv", rejects, "--store", dir.file("again"), "--session", "sid", "--time", "at", "--event", "event").status == 1)
    }

    @Test func csvHeaderWithoutTheNamedColumnIsUsageTrouble() throws {
        let dir = try TemporaryDirectory()
        let r = navlog("import", "csv", Self.fixture("events.csv"), "--store", dir.file("logs"), "--session", "user", "--time", "timestamp", "--event", "event")
        #expect(r.status == 2)
        #expect(r.stderr.contains(#"events.csv:1: no column "user" in the header"#))
    }

    @Test func reactNavigationSnapshotsBecomeEvents() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("logs")
        let r = navlog("import", "react-navigation", Self.fixture("react-navigation.ndjson"), "--store", store)
        #expect(r.status == 0, "\(r.stderr)")
        let logs = try Self.logs(in: store)
        #expect(logs.count == 2)
        let rn1 = try #require(logs.first { $0.contains("rn-1") })
        #expect(navlog("cat", rn1).stdout.split(separator: "\n").count == 7)
        #expect(try Self.screen(rn1) == "Feed")
        let tabs = try Self.stateJSON(rn1, at: "5")["scenes"].flatMap { ($0 as? [String: Any])?["main"] as? [String: Any] }?["tabs"] as? [String: Any]
        #expect(tabs?["selected"] as? String == "Search")
        let bad = try dir.file("bad.ndjson", #"{"t":"2026-11-20T10:00:00Z","session":"x","state":{"index":3,"routes":[{"name":"A"}]}}"# + "\n")
        let b = navlog("import", "react-navigation", bad, "--store", store)
        #expect(b.status == 1)
        #expect(b.stderr.hasPrefix("navlog: \(bad):1: field \"state.index\": 3 is outside routes (0…0)\n"))
    }

    @Test func thePublishedSwiftUIPathRoundTripsExactly() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("logs")
        let r = navlog("import", "swiftui-path", Self.fixture("swiftui-path.json"), "--store", store, "--stack", "main",
                       "--session", "s-1", "--time", "2026-11-20T10:00:00Z")
        #expect(r.status == 0, "\(r.stderr)")
        let log = try #require(try Self.logs(in: store).first)
        let exported = navlog("export", "swiftui-path", log, "--stack", "main")
        #expect(exported.status == 0)
        #expect(exported.stdout == (try String(contentsOfFile: Self.fixture("swiftui-path.json"), encoding: .utf8)))
        #expect(try Self.screen(log) == "User/42")   // the top: first in the array
        let missing = navlog("export", "swiftui-path", log, "--stack", "search")
        #expect(missing.status == 1)
        #expect(missing.stderr == "navlog: \(log): no stack \"search\" in scene \"main\" at end\n")
        let bad = try dir.file("odd.json", #"["Swift.Int"]"#)
        let b = navlog("import", "swiftui-path", bad, "--store", store, "--stack", "home")
        #expect(b.status == 1)
        #expect(b.stderr.hasPrefix("navlog: \(bad):1: field \"(top level)\": 1 strings, expected tag/value pairs (an even count)\n"))
    }

    /// navlog → export swiftui-path → import swiftui-path: the stack's screens
    /// at every tenth event of generated sessions.
    @Test func generatedStacksRoundTripThroughTheBinary() throws {
        let dir = try TemporaryDirectory()
        let generated = navlog("generate", "--sessions", "3", "--seed", "21", "--events-per-session", "60-60")
        #expect(generated.status == 0)
        let source = try dir.file("s.ndjson", generated.stdout)
        var checked = 0
        for session in ["s-000001", "s-000002", "s-000003"] {
            for at in stride(from: 10, through: 60, by: 10) {
                let state = navlog("state", source, "--session", session, "--at", "\(at)", "--json")
                let json = try JSONSerialization.jsonObject(with: Data(state.stdout.utf8)) as? [String: Any]
                let scene = (json?["scenes"] as? [String: Any])?["main"] as? [String: Any]
                for (stack, values) in (scene?["stacks"] as? [String: [[String: Any]]]) ?? [:] where !values.isEmpty {
                    let exported = navlog("export", "swiftui-path", source, "--session", session, "--at", "\(at)", "--stack", stack)
                    #expect(exported.status == 0, "\(exported.stderr)")
                    let file = try dir.file("p.json", exported.stdout)
                    let store = dir.file("st-\(checked)")
                    #expect(navlog("import", "swiftui-path", file, "--store", store, "--stack", stack, "--session", session).status == 0)
                    let back = try Self.stateJSON(try Self.logs(in: store)[0])
                    let stacks = ((back["scenes"] as? [String: Any])?["main"] as? [String: Any])?["stacks"] as? [String: [[String: Any]]]
                    func names(_ v: [[String: Any]]) -> [String] { v.map { ($0["type"] as! String) + (($0["id"] as? String).map { "/" + $0 } ?? "") } }
                    #expect(names(stacks?[stack] ?? []) == names(values), "\(session) at \(at) stack \(stack)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 6)
    }
}
