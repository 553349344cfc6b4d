import Foundation
import Testing
import NavLogTestSupport

/// The tab model of iOS 18 and later (docs/tabs.md) through the real binary:
/// a log and a store take the new events, and `cat`, `state`, `replay`,
/// `diff`, `blame` and `export events` show them.
@Suite("navlog: the iOS 18 tab model")
struct TabModelCommandTests {
    /// A session on an iPad: the sidebar, sections, a search tab, the user's
    /// customization hiding the selected tab, then the window made compact.
    static let session = """
        {"session":"t-1","t":"2026-11-20T10:00:00Z","type":"session.start"}
        {"session":"t-1","t":"2026-11-20T10:00:01Z","type":"layout.change","sizeClass":"regular","tabPresentation":"sidebar"}
        {"session":"t-1","t":"2026-11-20T10:00:02Z","type":"tabs.define","tabs":["home","library","search"],"sections":[{"name":"Collections","tabs":["favorites"]}],"searchTab":"search"}
        {"session":"t-1","t":"2026-11-20T10:00:03Z","type":"tab.select","tab":"library"}
        {"session":"t-1","t":"2026-11-20T10:00:04Z","type":"tabs.customize","order":["search","library","home"],"hidden":["library"]}
        {"session":"t-1","t":"2026-11-20T10:00:05Z","type":"layout.change","sizeClass":"compact","tabPresentation":"tabBar"}

        """

    static let tabsAtEnd = #""tabs":{"customized":true,"hidden":["library"],"order":["search","library","home","favorites"],"presentation":"tabBar","searchTab":"search","sections":[{"name":"Collections","tabs":["favorites"]}],"selected":"library"}"#

    @Test func aLogAndAStoreKeepAndShowTheNewEvents() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("t.navlog")
        #expect(navlog("append", log, stdin: Self.session).status == 0)
        let cat = navlog("cat", log).stdout.split(separator: "\n").map(String.init)
        #expect(cat.count == 6)
        #expect(cat[2] == #"{"searchTab":"search","sections":[{"name":"Collections","tabs":["favorites"]}],"seq":3,"session":"t-1","t":"2026-11-20T10:00:02.000Z","tabs":["home","library","search"],"type":"tabs.define"}"#)
        #expect(cat[4] == #"{"hidden":["library"],"order":["search","library","home"],"seq":5,"session":"t-1","t":"2026-11-20T10:00:04.000Z","type":"tabs.customize"}"#)
        #expect(cat[5] == #"{"seq":6,"session":"t-1","sizeClass":"compact","t":"2026-11-20T10:00:05.000Z","tabPresentation":"tabBar","type":"layout.change"}"#)

        let state = navlog("state", log, "--json")
        #expect(state.status == 0)
        #expect(state.stdout.contains(Self.tabsAtEnd), "\(state.stdout)")
        #expect(state.stdout.contains(#""anomalies":{}"#))
        #expect(state.stdout.contains(#""screen":"tab:library""#))
        let check = run(repositoryRoot.appendingPathComponent("tools/check-schemas").path, ["state", "-"], stdin: Data(state.stdout.utf8))
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")

        let input = try dir.file("t.ndjson", Self.session)
        #expect(navlog("ingest", input, "--store", dir.file("store")).status == 0)
        #expect(navlog("state", dir.file("store"), "--session", "t-1", "--json").stdout == state.stdout)
        #expect(navlog("state", input, "--json").stdout == state.stdout)
        #expect(navlog("cat", dir.file("store"), "--session", "t-1").stdout == navlog("cat", log).stdout)
        let tree = navlog("state", log, environment: ["NO_COLOR": "1"]).stdout
        #expect(tree.contains("  tabs       search  [library] (hidden)  home  favorites\n  section    Collections: favorites\n  search tab search\n  customized by the user\n"), "\(tree)")
        #expect(tree.contains("  size class compact\n  tabs as    tabBar\n"))
        // Before the customization, none of its fields are printed.
        let before = navlog("state", log, "--at", "4", "--json").stdout
        #expect(!before.contains("customized") && before.contains(#""presentation":"sidebar""#))
    }

    @Test func replayDiffAndBlameNameTheChanges() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("t.navlog")
        #expect(navlog("append", log, stdin: Self.session).status == 0)
        let replay = navlog("replay", log, environment: ["NO_COLOR": "1"]).stdout
        #expect(replay.contains("layout.change   — size class regular; tabs as sidebar\n"), "\(replay)")
        #expect(replay.contains("tabs.define     — tabs home, library, search, favorites; sections Collections (favorites); search tab search\n"))
        #expect(replay.contains("tabs.customize  — user customization; tabs search, library, home, favorites; hid tab library\n"))
        #expect(replay.contains("layout.change   — size class compact; tabs as tabBar\n"))
        let replayJSON = navlog("replay", log, "--json").stdout
        #expect(replayJSON.contains(#""effects":["user customization","tabs search, library, home, favorites","hid tab library"]"#))

        let diffText = try diffOfPrefix(dir, at: 4, log)
        #expect(diffText.status == 1)
        #expect(diffText.stdout.contains("  hidden tabs    -(none)  +library\n"), "\(diffText.stdout)")
        #expect(diffText.stdout.contains("  customized     -no  +yes\n"))
        #expect(diffText.stdout.contains("  tabs as        -sidebar  +tabBar\n"))

        let blame = navlog("blame", log, environment: ["NO_COLOR": "1"]).stdout
        #expect(blame.contains("  tab library  hidden by the user's customization at seq 5  2026-11-20T10:00:04.000Z  tabs.customize\n"), "\(blame)")
        let blameJSON = navlog("blame", log, "--json").stdout
        #expect(blameJSON.contains(#""hiddenTabs":{"library":{"by":{"seq":5,"t":"2026-11-20T10:00:04.000Z","type":"tabs.customize"},"hider":"the user's customization"}}"#), "\(blameJSON)")

        let rows = navlog("export", "events", log, "--format", "csv").stdout
        #expect(rows.contains(",tabs.customize,,,\"search,library,home; hidden library\","), "\(rows)")
        #expect(rows.contains(",layout.change,,,\"compact, tabBar\","))
    }

    /// `diff A B` of the session's first `at` events against the whole log.
    func diffOfPrefix(_ dir: TemporaryDirectory, at: Int, _ log: String) throws -> (status: Int32, stdout: String, stderr: String) {
        let prefix = try dir.file("p.ndjson", Self.session.split(separator: "\n").prefix(at).joined(separator: "\n") + "\n")
        let text = navlog("diff", prefix, log, environment: ["NO_COLOR": "1"])
        let json = navlog("diff", prefix, log, "--json")
        #expect(json.stdout.contains(#""customized":{"a":false,"b":true}"#))
        let check = run(repositoryRoot.appendingPathComponent("tools/check-schemas").path, ["diff", "-"], stdin: Data(json.stdout.utf8))
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        return text
    }

    @Test func aStateRestoreCarriesThemAllAndBadLinesAreRejected() throws {
        let dir = try TemporaryDirectory()
        let restore = #"{"session":"r-1","t":"2026-11-20T10:00:00Z","type":"state.restore","state":{"tabs":{"customized":true,"hidden":["library"],"order":["home","library"],"presentation":"sidebar","searchTab":"search","sections":[{"name":"Mine","tabs":["library"]}],"selected":"library"}}}"#
        let log = dir.file("r.navlog")
        #expect(navlog("append", log, stdin: restore + "\n").status == 0)
        let state = navlog("state", log, "--json").stdout
        #expect(state.contains(#""tabs":{"customized":true,"hidden":["library"],"order":["home","library","search"],"presentation":"sidebar","searchTab":"search","sections":[{"name":"Mine","tabs":["library"]}],"selected":"library"}"#), "\(state)")

        let bad = """
            {"session":"b","t":"2026-11-20T10:00:00Z","type":"tabs.customize","order":["a"],"hidden":true}
            {"session":"b","t":"2026-11-20T10:00:01Z","type":"layout.change","sizeClass":"regular","tabPresentation":"floating"}

            """
        let input = try dir.file("bad.ndjson", bad)
        let r = navlog("ingest", input, "--store", dir.file("store"))
        #expect(r.status == 1)
        #expect(r.stderr.contains("hidden") && r.stderr.contains("tabPresentation"), "\(r.stderr)")
    }

    /// `generate --ios18-tabs`: iPad sessions that use all of it, which
    /// round-trip through ingest, `cat` and `state`.
    @Test func generatedIPadSessionsRoundTrip() throws {
        let dir = try TemporaryDirectory()
        let input = dir.file("g.ndjson")
        #expect(navlog("generate", "--sessions", "30", "--seed", "10", "--ios18-tabs", "--output", input).status == 0)
        let text = try String(contentsOfFile: input, encoding: .utf8)
        for needle in [#""type":"tabs.customize""#, #""sections":["#, #""searchTab":"search""#, #""tabPresentation":"tabBar""#,
                       #""tabPresentation":"sidebar""#] {
            #expect(text.contains(needle), "generated no \(needle)")
        }
        #expect(navlog("ingest", input, "--store", dir.file("store")).status == 0)
        let ids = Set(text.split(separator: "\n").filter { $0.contains("tabs.customize") }.compactMap { line -> String? in
            guard let range = line.range(of: #""session":""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        })
        #expect(!ids.isEmpty)
        for id in ids.sorted().prefix(3) {
            let lines = text.split(separator: "\n").filter { $0.contains(#""session":"\#(id)""#) }.joined(separator: "\n") + "\n"
            #expect(navlog("cat", dir.file("store"), "--session", id).stdout == lines)
            let state = navlog("state", dir.file("store"), "--session", id, "--json")
            #expect(state.status == 0)
            #expect(state.stdout.contains(#""customized":true"#))
            #expect(state.stdout == navlog("state", input, "--session", id, "--json").stdout)
        }
    }
}
