import Foundation
import Testing
import NavLogTestSupport

/// `navlog diff` through the real binary: exit 0 same, 1 different, 2 trouble;
/// logs and NDJSON alike; JSON per schemas/diff.schema.json.
@Suite("navlog diff")
struct DiffCommandTests {
    static let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path

    @Test func sameStatesExitZero() throws {
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        #expect(navlog("append", log, stdin: try String(contentsOfFile: Self.sample, encoding: .utf8)).status == 0)
        let r = navlog("diff", Self.sample, log)
        #expect(r.status == 0 && r.stdout == "no difference\n" && r.stderr == "")
        #expect(navlog("diff", log, Self.sample, "--at", "13").status == 0)
    }

    @Test func differentStatesExitOneWithTheDifference() throws {
        let r = navlog("diff", Self.sample, Self.sample, "--at", "9", environment: ["NO_COLOR": "1"])
        #expect(r.status == 0)
        let dir = try TemporaryDirectory()
        let lines = try String(contentsOfFile: Self.sample, encoding: .utf8).split(separator: "\n")
        let prefix = try dir.file("p.ndjson", lines.prefix(9).joined(separator: "\n") + "\n")
        let d = navlog("diff", prefix, Self.sample)
        #expect(d.status == 1)
        #expect(d.stderr == "")
        #expect(d.stdout.hasPrefix("scene main\n"))
        #expect(d.stdout.contains("screen"))
        #expect(!d.stdout.contains("\u{1B}["))
        let j = navlog("diff", prefix, Self.sample, "--json")
        #expect(j.status == 1)
        #expect(j.stdout.hasPrefix(#"{"a":{"input":"\#(prefix)","seq":9,"session":"demo-1","#))
        #expect(j.stdout.contains(#""same":false"#))
        let check = run(repositoryRoot.appendingPathComponent("tools/check-schemas").path, ["diff", "-"], stdin: Data(j.stdout.utf8))
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        // The same two at the prefix's end are equal.
        #expect(navlog("diff", prefix, Self.sample, "--at", "9", "--json").stdout.contains(#""same":true,"scenes":{}"#))
    }

    @Test func troubleExitsTwo() {
        #expect(navlog("diff", Self.sample, "/nonexistent/x.navlog").status == 2)
        #expect(navlog("diff", Self.sample, Self.sample, "--at", "soon").status == 2)
        #expect(navlog("diff", Self.sample).status == 2)
    }
}

/// `navlog blame` through the real binary.
@Suite("navlog blame")
struct BlameCommandTests {
    static let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path

    @Test func listsTheOriginOfEveryValueAndModal() throws {
        let r = navlog("blame", Self.sample, "--at", "13", environment: ["NO_COLOR": "1"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("  stack home\n    1  Category/desserts  seq 4  2026-11-20T10:00:02.310Z  stack.push\n"))
        #expect(r.stdout.contains("  modal 2  card-scanner (fullScreenCover)  seq 13  2026-11-20T10:00:27.640Z  modal.present\n"))
        let dir = try TemporaryDirectory()
        let log = dir.file("s.navlog")
        #expect(navlog("append", log, stdin: try String(contentsOfFile: Self.sample, encoding: .utf8)).status == 0)
        for at in ["13", "18", "end"] {
            #expect(navlog("blame", log, "--at", at, "--json").stdout == navlog("blame", Self.sample, "--at", at, "--json").stdout)
        }
        let deepLink = navlog("blame", Self.sample, "--at", "18", "--json").stdout
        #expect(deepLink.contains(#""url":{"seq":16,"t":"2026-11-20T10:00:40.000Z","url":"recipes://recipe/lemon-tart"}"#), "\(deepLink)")
    }
}
