import Foundation
import Testing
import NavLogTestSupport

/// `navlog state` through the real binary: outputs, exit codes, one-line errors (docs/state.md, docs/commands.md).
@Suite("navlog state")
struct StateCommandTests {
    static let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path

    @Test func jsonAtTheEndIsTheContractsForm() {
        let r = navlog("state", Self.sample, "--json")
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(r.stdout == #"{"anomalies":{"pop-underflow":1},"scenes":{"main":{"modals":[],"screen":"tab:home","sizeClass":null,"splits":{},"stacks":{"checkout":[{"type":"Payment"}],"home":[],"search":[{"data":{"query":"crumble"},"type":"Results"},{"id":"plum-crumble","type":"Recipe"}]},"tabs":{"hidden":["favorites"],"order":["home","search","favorites","settings"],"selected":"home"}}},"seq":23,"session":"demo-1","t":"2026-11-20T10:01:00.000Z"}"# + "\n")
    }

    @Test func canonicallyEquivalentSessionIdsAreTwoSessions() throws {
        let dir = try TemporaryDirectory()
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        let file = try dir.file("two.ndjson", """
            {"session":"\(composed)","t":"2026-11-20T10:00:01Z","type":"stack.push","stack":"main","value":{"type":"A"}}
            {"session":"\(decomposed)","t":"2026-11-20T10:00:02Z","type":"stack.push","stack":"main","value":{"type":"B"}}

            """)
        let both = navlog("state", file, "--json")
        #expect(both.status == 2)
        #expect(both.stderr.contains("holds 2 sessions"))
        let one = navlog("state", file, "--session", decomposed, "--json")
        #expect(one.status == 0)
        #expect(one.stdout.contains(#""main":[{"type":"B"}]"#) && !one.stdout.contains(#"{"type":"A"}"#))
        #expect(one.stdout.contains(#""seq":1,"#))
    }

    @Test func atZeroIsTheEmptyState() {
        let r = navlog("state", Self.sample, "--at", "0", "--json")
        #expect(r.status == 0)
        #expect(r.stdout == #"{"anomalies":{},"scenes":{},"seq":0,"session":"demo-1","t":null}"# + "\n")
    }

    @Test func atASeqAndAtTheMatchingInstantAgree() {
        let bySeq = navlog("state", Self.sample, "--at", "13", "--json")
        let byInstant = navlog("state", Self.sample, "--at", "2026-11-20T10:00:28+00:00", "--json")
        let byEarlierOffset = navlog("state", Self.sample, "--at", "2026-11-20T11:00:27.640+01:00", "--json")
        #expect(bySeq.status == 0)
        #expect(bySeq.stdout.contains(#""screen":"modal:card-scanner""#))
        #expect(bySeq.stdout == byInstant.stdout)
        #expect(bySeq.stdout == byEarlierOffset.stdout)
    }

    @Test func anInstantAppliesExactlyTheEventsNotAfterIt() throws {
        let dir = try TemporaryDirectory()
        // t goes back in time at seq 3: at 10:00:01.5 seq 1 and 3 apply, seq 2 does not.
        let file = try dir.file("t.ndjson", """
            {"session":"s","t":"2026-11-20T10:00:01Z","type":"stack.push","stack":"main","value":{"type":"A"}}
            {"session":"s","t":"2026-11-20T10:00:02Z","type":"stack.push","stack":"main","value":{"type":"B"}}
            {"session":"s","t":"2026-11-20T10:00:01.500Z","type":"stack.push","stack":"main","value":{"type":"C"}}

            """)
        let r = navlog("state", file, "--at", "2026-11-20T10:00:01.5Z", "--json")
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""stacks":{"main":[{"type":"A"},{"type":"C"}]}"#))
        #expect(r.stdout.contains(#""seq":3"#))
    }

    @Test func theTreeShowsScreenTabsStacksAndModals() {
        let r = navlog("state", Self.sample, "--at", "13", environment: ["NO_COLOR": "1"])
        #expect(r.status == 0)
        #expect(r.stdout == """
            session demo-1 · seq 13 · 2026-11-20T10:00:27.640Z
            scene main  screen: modal:card-scanner
              tabs       home  [search]  favorites  settings
              stack checkout Payment
              stack home     Category/desserts › Recipe/apple-pie › Step/3
              stack search   Results › Recipe/plum-crumble
              modals     checkout (sheet) › card-scanner (fullScreenCover)

            """)
        #expect(!r.stdout.contains("\u{1B}["))  // not a terminal: no colour
    }

    @Test func standardInputIsAccepted() throws {
        let text = try String(contentsOfFile: Self.sample, encoding: .utf8)
        let r = navlog("state", "-", "--json", stdin: text)
        #expect(r.status == 0)
        #expect(r.stdout == navlog("state", Self.sample, "--json").stdout)
    }

    @Test func rejectedLinesAreListedAndNoStateIsPrinted() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.file("bad.ndjson", """
            {"session":"a","t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}
            {"session":"a","t":"yesterday","type":"mark","label":"x"}

            {"session":"a","t":"2026-11-20T10:00:00Z","type":"stack.pop","stack":"s","count":0}
            not json
            {"session":"a","seq":1,"t":"2026-11-20T10:00:00Z","type":"mark","label":"x"}

            """)
        let r = navlog("state", file, "--json")
        #expect(r.status == 1)
        #expect(r.stdout == "")
        let lines = r.stderr.split(separator: "\n").map(String.init)
        #expect(lines == [
            #"navlog: \#(file):2: field "t": not a strict RFC 3339 timestamp (character 1 is 'y', expected a digit): "yesterday""#,
            #"navlog: \#(file):4: field "count": must be ≥ 1, found 0"#,
            "navlog: \(file):5: invalid JSON at byte 0: unexpected 'n', expected '{'",
            #"navlog: \#(file):6: field "seq": 1 does not increase (previous accepted seq is 1)"#,
            "navlog: \(file): 4 lines rejected; no state printed",
        ])
    }

    @Test func severalSessionsNeedAChoice() throws {
        let dir = try TemporaryDirectory()
        let file = try dir.file("two.ndjson", """
            {"session":"a","t":"2026-11-20T10:00:00Z","type":"tab.select","tab":"x"}
            {"session":"b","t":"2026-11-20T10:00:00Z","type":"tab.select","tab":"y"}

            """)
        let both = navlog("state", file)
        #expect(both.status == 2)
        #expect(both.stderr == "navlog: \(file): holds 2 sessions (\"a\", \"b\"); choose one with --session\n")
        let b = navlog("state", file, "--session", "b", "--json")
        #expect(b.status == 0)
        #expect(b.stdout.contains(#""selected":"y""#))
        #expect(b.stdout.contains(#""session":"b""#))
        let none = navlog("state", file, "--session", "c")
        #expect(none.status == 2)
        #expect(none.stderr == "navlog: \(file): no events of session \"c\"\n")
    }

    @Test func usageAndIOTroubleExitWithTwoAndOneLine() {
        let cases: [([String], String)] = [
            (["state", "/nonexistent/x.ndjson"], "navlog: /nonexistent/x.ndjson: cannot open: No such file or directory\n"),
            (["state", Self.sample, "--at", "yesterday"],
             #"navlog: --at: invalid state spec "yesterday": expected a seq (an integer ≥ 0), an RFC 3339 instant, or "end""# + "\n"),
            (["state", Self.sample, "--at=-1"],
             #"navlog: --at: invalid state spec "-1": a seq must be ≥ 0"# + "\n"),
            (["state"], "navlog: Missing expected argument '<log>' (see 'navlog state --help')\n"),
            (["no-such-command"], "navlog: 'no-such-command' is not a command of navlog (see 'navlog --help')\n"),
            (["import", "csv", "x.csv", "--store"], "navlog: Missing value for '--store <dir>' (see 'navlog import csv --help')\n"),
            (["state", "/"], "navlog: /: not a store (no navlog-store manifest and no version-1 logs)\n"),
        ]
        for (args, stderr) in cases {
            let r = run(navlogBinary(), args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr == stderr, "\(args)")
            #expect(r.stdout == "", "\(args)")
        }
    }

    @Test func helpGoesToStandardOutputWithAnExample() {
        let r = navlog("state", "--help")
        #expect(r.status == 0)
        #expect(r.stdout.contains("Examples:"))
        #expect(r.stdout.contains("navlog state session.ndjson --at 42 --json"))
        #expect(r.stderr == "")
    }
}
