import Foundation
import Testing
import NavLogTestSupport

/// `navlog funnel` through the real binary: the CSV of docs/analytics.md, JSON (with
/// its schema), the table, stores of logs and NDJSON giving the same
/// answer, segments, time filters and errors.
@Suite struct FunnelCommandTests {
    /// Three sessions, interleaved: s-a converts in 1 s, s-b in 19 s, s-c never starts the funnel.
    static let sessions = """
        {"session":"s-a","t":"2026-11-20T10:00:00Z","type":"session.start","app":{"version":"1.0"},"device":{"idiom":"phone"}}
        {"session":"s-b","t":"2026-11-20T10:00:00.500Z","type":"session.start","app":{"version":"2.0"}}
        {"session":"s-a","t":"2026-11-20T10:00:01Z","type":"stack.push","stack":"main","value":{"type":"Home"}}
        {"session":"s-b","t":"2026-11-20T10:00:01.500Z","type":"stack.push","stack":"main","value":{"type":"Recipe","id":"tart"}}
        {"session":"s-a","t":"2026-11-20T10:00:03Z","type":"stack.push","stack":"main","value":{"type":"Recipe","id":"pie"}}
        {"session":"s-a","t":"2026-11-20T10:00:04Z","type":"mark","label":"purchase"}
        {"session":"s-b","t":"2026-11-20T10:00:20.500Z","type":"mark","label":"purchase"}
        {"session":"s-c","t":"2026-11-20T10:05:00Z","type":"stack.push","stack":"main","value":{"type":"Home"}}

        """

    static let header = "step,pattern,sessions,conversion_from_start,conversion_from_previous,median_seconds_from_previous\n"

    /// The sessions as NDJSON and as a store of one log per session (written by `navlog append`).
    static func inputs() throws -> (dir: TemporaryDirectory, ndjson: String, store: String) {
        let dir = try TemporaryDirectory()
        let ndjson = try dir.file("sessions.ndjson", sessions)
        let store = dir.file("store")
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        for id in ["s-a", "s-b", "s-c"] {
            let lines = sessions.split(separator: "\n").filter { $0.contains("\"session\":\"\(id)\"") }.joined(separator: "\n") + "\n"
            let r = navlog("append", "\(store)/\(v1Log(id))", stdin: lines)
            #expect(r.status == 0, "\(r.stderr)")
        }
        return (dir, ndjson, store)
    }

    @Test func csvIsTheContractsByHand() throws {
        let (dir, ndjson, store) = try Self.inputs()
        _ = dir
        let expected = Self.header + """
            1,Recipe/*,2,1.0000,0.6667,
            2,mark:purchase,2,1.0000,1.0000,10.000

            """
        for input in [ndjson, store] {
            let r = navlog("funnel", input, "--step", "Recipe/*", "--step", "mark:purchase", "--format", "csv")
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout == expected, "\(input)")
        }
        // A log file given directly, and several inputs at once.
        let one = navlog("funnel", "\(store)/\(v1Log("s-a"))", "\(store)/\(v1Log("s-b"))", "--step", "Recipe/*", "--step", "mark:purchase", "--format", "csv")
        #expect(one.stdout == Self.header + "1,Recipe/*,2,1.0000,1.0000,\n2,mark:purchase,2,1.0000,1.0000,10.000\n")
    }

    @Test func theWindowCutsTheSlowSession() throws {
        let (dir, _, store) = try Self.inputs()
        _ = dir
        let r = navlog("funnel", store, "--step", "Recipe/*", "--step", "mark:purchase", "--within", "10s", "--format", "csv")
        #expect(r.stdout == Self.header + "1,Recipe/*,2,1.0000,0.6667,\n2,mark:purchase,1,0.5000,0.5000,1.000\n")
        let exact = navlog("funnel", store, "--step", "Recipe/*", "--step", "mark:purchase", "--within", "19s", "--format", "csv")
        #expect(exact.stdout.hasSuffix("2,mark:purchase,2,1.0000,1.0000,10.000\n"))
    }

    @Test func segmentsAndTimeFilters() throws {
        let (dir, ndjson, _) = try Self.inputs()
        _ = dir
        let r = navlog("funnel", ndjson, "--step", "Recipe/*", "--by", "app.version", "--format", "csv")
        #expect(r.stdout == "segment," + Self.header + ",1,Recipe/*,0,,0.0000,\n1.0,1,Recipe/*,1,1.0000,1.0000,\n2.0,1,Recipe/*,1,1.0000,1.0000,\n")
        let late = navlog("funnel", ndjson, "--step", "Home", "--from", "2026-11-20T10:01:00Z", "--format", "csv")
        #expect(late.stdout == Self.header + "1,Home,1,1.0000,1.0000,\n")
        let early = navlog("funnel", ndjson, "--step", "Home", "--to", "2026-11-20T10:00:00Z", "--format", "csv")
        #expect(early.stdout == Self.header + "1,Home,1,1.0000,1.0000,\n")
        let none = navlog("funnel", ndjson, "--step", "Home", "--to", "2026-11-20T09:00:00Z", "--format", "csv")
        #expect(none.stdout == Self.header + "1,Home,0,,,\n")
    }

    /// `--by meta.…` reads the first `session.start`'s `meta`, over NDJSON
    /// read directly (canonical lines take the fast path, which leaves
    /// `meta` out for a funnel without `--by`) and over a store.
    @Test func segmentsByMeta() throws {
        let dir = try TemporaryDirectory()
        let lines = [
            #"{"meta":{"locale":"en_GB"},"seq":1,"session":"a","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
            #"{"meta":{"note":"x"},"seq":2,"session":"a","stack":"main","t":"2026-11-20T10:00:01.000Z","type":"stack.push","value":{"type":"Home"}}"#,
            #"{"meta":{"locale":"fr_FR"},"seq":1,"session":"b","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
            #"{"seq":2,"session":"b","stack":"main","t":"2026-11-20T10:00:01.000Z","type":"stack.push","value":{"type":"Home"}}"#,
            #"{"seq":1,"session":"c","t":"2026-11-20T10:00:00.000Z","type":"session.start"}"#,
        ]
        let ndjson = try dir.file("meta.ndjson", lines.joined(separator: "\n") + "\n")
        let store = dir.file("meta-store")
        #expect(navlog("ingest", ndjson, "--store", store).status == 0)
        let expected = "segment," + Self.header + ",1,Home,0,,0.0000,\nen_GB,1,Home,1,1.0000,1.0000,\nfr_FR,1,Home,1,1.0000,1.0000,\n"
        for input in [ndjson, store] {
            let r = navlog("funnel", input, "--step", "Home", "--by", "meta.locale", "--format", "csv")
            #expect(r.status == 0, "\(input): \(r.stderr)")
            #expect(r.stdout == expected, "\(input)")
        }
        // Without --by, the same sessions and counts.
        let plain = navlog("funnel", ndjson, "--step", "Home", "--format", "csv")
        #expect(plain.stdout == Self.header + "1,Home,2,1.0000,0.6667,\n")
    }

    @Test func jsonFollowsItsSchema() throws {
        let (dir, ndjson, _) = try Self.inputs()
        let r = navlog("funnel", ndjson, "--step", "Recipe/*", "--step", "mark:purchase", "--by", "device.idiom", "--within", "1h30m", "--format", "json")
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""within_ms":5400000"#))
        #expect(r.stdout.contains(#"{"segment":"phone","sessions":1,"steps":[{"conversion_from_previous":1.0000,"conversion_from_start":1.0000,"median_seconds_from_previous":null,"pattern":"Recipe/*","sessions":1,"step":1}"#))
        let file = try dir.file("funnel.json", r.stdout)
        let check = run(repositoryRoot.appendingPathComponent("tools/check-schemas").path, ["funnel", file])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func theTableHasBarsAndNoColourOffATerminal() throws {
        let (dir, ndjson, _) = try Self.inputs()
        _ = dir
        let r = navlog("funnel", ndjson, "--step", "Recipe/*", "--step", "mark:purchase", "--within", "10s")
        #expect(r.status == 0)
        #expect(!r.stdout.contains("\u{1B}["))
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "3 sessions · within 10s")
        #expect(lines.contains { $0.hasPrefix("   1  Recipe/*") && $0.contains("100.0%") && $0.contains("66.7%") && $0.hasSuffix(String(repeating: "█", count: 30)) })
        #expect(lines.contains { $0.hasPrefix("   2  mark:purchase") && $0.contains("50.0%") && $0.contains("1.0 s") && $0.hasSuffix(String(repeating: "█", count: 15)) })
    }

    @Test func strictOrderAndExclusions() throws {
        let (dir, ndjson, _) = try Self.inputs()
        _ = dir
        // s-a: Home → Recipe/pie directly; strict Home → Recipe/* converts.
        let strict = navlog("funnel", ndjson, "--step", "Home", "--step", "Recipe/*", "--order", "strict", "--format", "csv")
        #expect(strict.stdout.hasSuffix("2,Recipe/*,1,0.5000,0.5000,2.000\n"))
        // Excluding Recipe/pie between Home and the purchase stops s-a at Home.
        let excluded = navlog("funnel", ndjson, "--step", "Home", "--step", "mark:purchase", "--exclude", "Recipe/pie", "--format", "csv")
        #expect(excluded.stdout.hasSuffix("2,mark:purchase,0,0.0000,0.0000,\n"))
    }

    @Test func usageAndInputErrors() throws {
        let (dir, _, _) = try Self.inputs()
        let noStep = navlog("funnel", dir.file("sessions.ndjson"))
        #expect(noStep.status == 2)
        #expect(noStep.stderr.contains("--step"))
        let badWindow = navlog("funnel", dir.file("sessions.ndjson"), "--step", "A", "--within", "10 minutes")
        #expect(badWindow.status == 2)
        #expect(badWindow.stderr.contains("--within"))
        let missing = navlog("funnel", dir.file("nope"), "--step", "A")
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nope"))
        let bad = try dir.file("bad.ndjson", Self.sessions + "{\"session\":\"s-x\",\"type\":\"mark\"}\n")
        let rejected = navlog("funnel", bad, "--step", "A")
        #expect(rejected.status == 1)
        #expect(rejected.stderr.contains("bad.ndjson:9:"))
        #expect(rejected.stdout == "")
    }
}
