import Foundation
import NavLogCore
import NavLogSample
import Testing
import NavLogTestSupport

/// `navlog bisect` through the real binary, against a brute-force replay of
/// both sessions, for NDJSON and logs (different block sizes), JSON per
/// schemas/bisect.schema.json, and the single-log `--until` form.
@Suite("navlog bisect")
struct BisectCommandTests {
    static let checker = repositoryRoot.appendingPathComponent("tools/check-schemas").path

    static func bruteForce(_ a: [Event], _ b: [Event]) -> Int? {
        var x = NavigationState(session: "a"), y = NavigationState(session: "b")
        for k in 0..<min(a.count, b.count) {
            x.apply(a[k])
            y.apply(b[k])
            if !x.sameScenes(as: y) { return k + 1 }
        }
        return a.count == b.count ? nil : min(a.count, b.count) + 1
    }

    static func ndjson(_ events: [Event]) -> String {
        String(decoding: NavLogTestSupport.ndjson(events), as: UTF8.self)
    }

    @Test func agreesWithBruteForceOnNDJSONAndLogs() throws {
        let dir = try TemporaryDirectory()
        let generator = SampleGenerator(.init(sessions: 1, seed: 3, eventsPerSession: 300...300))
        let base = Array(generator.session(at: 0))
        var cases: [(String, [Event], [Event])] = [("never", base, base), ("prefix", base, Array(base[..<200]))]
        for k in [0, 150, 299] {
            var b = base
            b[k].kind = .stackPush(stack: "odd", value: RouteValue(type: "Odd"))
            cases.append(("change \(k)", base, b))
        }
        for (name, a, b) in cases {
            let expected = Self.bruteForce(a, b)
            let fa = try dir.file("a.ndjson", Self.ndjson(a)), fb = try dir.file("b.ndjson", Self.ndjson(b))
            let la = dir.file("a-\(name).navlog"), lb = dir.file("b-\(name).navlog")
            #expect(navlog("append", la, stdin: Self.ndjson(a)).status == 0)
            _ = run(navlogBinary(), ["append", lb], stdin: Data(Self.ndjson(b).utf8))
            for (x, y) in [(fa, fb), (la, lb), (la, fb)] {
                let r = navlog("bisect", x, y, "--json")
                #expect(r.status == (expected == nil ? 0 : 1), "\(name): \(r.stderr)")
                let position = expected.map { #""position":\#($0),"# } ?? #""position":null,"#
                #expect(r.stdout.contains(#""diverged":\#(expected != nil)"#) && r.stdout.contains(position), "\(name) \(x) \(y): \(r.stdout.prefix(300))")
                let check = run(Self.checker, ["bisect", "-"], stdin: Data(r.stdout.utf8))
                #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
            }
        }
    }

    @Test func readableOutputShowsEventsLeadUpAndDifference() throws {
        let dir = try TemporaryDirectory()
        let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path
        let lines = try String(contentsOfFile: sample, encoding: .utf8).split(separator: "\n")
        let b = try dir.file("b.ndjson", (lines[..<15] + lines[16...]).joined(separator: "\n") + "\n")
        let r = navlog("bisect", sample, b, "--stats", environment: ["NO_COLOR": "1"])
        #expect(r.status == 1)
        #expect(r.stdout.hasPrefix("diverged at position 16\n  A  seq 16  2026-11-20T10:00:40.000Z  main  url.open"))
        #expect(r.stdout.contains("leading up to it in A:"))
        #expect(r.stdout.contains("state difference after it (-A +B):\nscene main\n"))
        #expect(r.stdout.contains("found by folding both sessions"))
        let same = navlog("bisect", sample, sample, "--json")
        #expect(same.status == 0)
        #expect(same.stdout.hasPrefix(#"{"a":"#) && same.stdout.contains(#""diverged":false"#) && same.stdout.contains(#""position":null"#))
        #expect(navlog("bisect", sample).status == 2)
        #expect(navlog("bisect", sample, sample, "--align", "time").status == 2)
    }

    @Test func untilFindsTheFirstMatchingScreen() throws {
        let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path
        let events = try String(contentsOfFile: sample, encoding: .utf8).split(separator: "\n").map { try EventParser.parse(String($0)) }
        var state = NavigationState(session: "demo-1")
        var expected: Int?
        for (i, e) in events.enumerated() {
            state.apply(e)
            if let screen = state.scenes[e.sceneID]?.screen, GlobPattern("modal:*").matches(screen) { expected = i + 1; break }
        }
        let r = navlog("bisect", sample, "--until", "modal:*", "--json")
        #expect(r.status == 0)
        #expect(r.stdout.contains(#""found":true"#) && r.stdout.contains(#""position":\#(expected!),"#))
        #expect(run(Self.checker, ["bisect", "-"], stdin: Data(r.stdout.utf8)).status == 0)
        let none = navlog("bisect", sample, "--until", "Nowhere/*")
        #expect(none.status == 1 && none.stdout.hasPrefix(#"no screen matches "Nowhere/*""#))
        // An empty pattern stays visible.
        let empty = navlog("bisect", sample, "--until", "")
        #expect(empty.status == 1 && empty.stdout.hasPrefix(#"no screen matches "" in"#), "\(empty.stdout)")
    }

    /// Generated files hold many sessions: --session picks one of each
    /// input, --session-a and --session-b one of either, as with diff.
    @Test func sessionsArePickedFromInputsThatHoldSeveral() throws {
        let dir = try TemporaryDirectory()
        let a = try dir.file("a.ndjson", navlog("generate", "--sessions", "4", "--seed", "3").stdout)
        let b = try dir.file("b.ndjson", navlog("generate", "--sessions", "4", "--seed", "4").stdout)
        let unpicked = navlog("bisect", a, b)
        #expect(unpicked.status == 2)
        #expect(unpicked.stderr.contains("holds 4 sessions") && unpicked.stderr.contains("--session"), "\(unpicked.stderr)")
        let same = navlog("bisect", a, a, "--session", "s-000002", "--json")
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout.contains(#""diverged":false"#))
        // Two different sessions of one file: checked against a brute-force replay of both.
        let events = try String(contentsOfFile: a, encoding: .utf8).split(separator: "\n").map { try EventParser.parse(String($0)) }
        let x = events.filter { $0.session == "s-000001" }, y = events.filter { $0.session == "s-000003" }
        let expected = try #require(Self.bruteForce(x, y))
        let two = navlog("bisect", a, a, "--session-a", "s-000001", "--session-b", "s-000003", "--json")
        #expect(two.status == 1, "\(two.stderr)")
        #expect(two.stdout.contains(#""position":\#(expected),"#), "\(two.stdout)")
        // --session-b overrides --session for B alone.
        let mixed = navlog("bisect", a, a, "--session", "s-000001", "--session-b", "s-000003", "--json")
        #expect(mixed.stdout == two.stdout)
        // A session an input does not hold.
        let missing = navlog("bisect", a, b, "--session", "nobody")
        #expect(missing.status == 2 && missing.stderr.contains(#"no events of session "nobody""#), "\(missing.stderr)")
        // The single-input form takes --session.
        let until = navlog("bisect", a, "--until", "*", "--session", "s-000002", "--json")
        #expect(until.status == 0 && until.stdout.contains(#""found":true"#), "\(until.stderr)")
    }
}
