import Foundation
import NavLogCore
import Testing
import NavLogTestSupport

/// Re-runs are no-ops (docs/store.md, docs/events.md "Numbering"): a line without `seq` is numbered
/// within its input, so the same input ingested or imported again stores
/// nothing, and a session stored from another input is continued only with
/// explicit seqs. Through the real binary.
@Suite("Re-runs store nothing")
struct RerunTests {
    static let sample = repositoryRoot.appendingPathComponent("tools/samples/recipes-session.ndjson").path

    /// The sample, as shipped (no `seq`), ingested twice: the second run stores nothing.
    @Test func theSampleIngestedAgainIsANoOp() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        #expect(try String(contentsOfFile: Self.sample, encoding: .utf8).contains(#""seq""#) == false)
        let first = navlog("ingest", Self.sample, "--store", store)
        #expect(first.status == 0, "\(first.stderr)")
        let before = navlog("cat", store, "--session", "demo-1").stdout
        let again = navlog("ingest", Self.sample, "--store", store)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "stored 0 events of 0 sessions (0 new) in \(store); 23 events already stored; 0 lines rejected\n")
        #expect(navlog("cat", store, "--session", "demo-1").stdout == before)
        #expect(navlog("verify", store).status == 0)
        // The same input twice in one run is two inputs: the second is all duplicates.
        let twice = navlog("ingest", Self.sample, "-", "--store", store, stdin: try String(contentsOfFile: Self.sample, encoding: .utf8))
        #expect(twice.stdout.contains("stored 0 events of 0 sessions (0 new) in \(store); 46 events already stored"), "\(twice.stdout)")
    }

    /// Generated sessions, interleaved, without seqs (another producer's
    /// style: keys in another order): a prefix ingested (an ingest stopped
    /// early), then the whole input again, gives the store one ingest gives.
    @Test func aRerunAfterAPartialIngestCompletesExactly() throws {
        let dir = try TemporaryDirectory()
        let lines = try navlog("generate", "--sessions", "30", "--seed", "9", "--interleave").stdout
            .split(separator: "\n").map { line -> String in
                var event = try EventParser.parse(String(line))
                event.seq = 0
                var writer = CanonicalWriter()
                writer.write(event)
                // Keys out of canonical order: `type` first.
                let object = try #require(try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: Any])
                let rest = try JSONSerialization.data(withJSONObject: object.filter { $0.key != "type" }, options: [.sortedKeys])
                return #"{"type":"\#(event.kind.typeName)","# + String(decoding: rest.dropFirst(), as: UTF8.self)
            }
        #expect(lines.count > 500)
        let whole = try dir.file("whole.ndjson", lines.joined(separator: "\n") + "\n")
        let part = try dir.file("part.ndjson", lines.prefix(lines.count / 3).joined(separator: "\n") + "\n")
        let store = dir.file("store"), once = dir.file("once")
        #expect(navlog("ingest", part, "--store", store).status == 0)
        let rest = navlog("ingest", whole, "--store", store)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(rest.stdout.contains("; \(lines.count / 3) events already stored; 0 lines rejected"), "\(rest.stdout)")
        #expect(navlog("ingest", whole, "--store", once).status == 0)
        #expect(try SegmentStoreContents.lines(store) == SegmentStoreContents.lines(once))
        #expect(try SegmentStoreContents.problems(store) == [])
    }

    /// A seq-less line of a session stored from another input lands on a
    /// stored seq: a conflict whose reason says to give `seq`; with `seq`, it goes on.
    @Test func continuingAStoredSessionFromAnotherInputTakesExplicitSeqs() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        #expect(navlog("ingest", Self.sample, "--store", store).status == 0)
        let more = try dir.file("more.ndjson", #"{"session":"demo-1","t":"2026-11-20T10:05:00Z","type":"mark","label":"more"}"# + "\n")
        let r = navlog("ingest", more, "--store", store)
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("navlog: \(more):1: seq 1 of session demo-1 is stored with different content "
            + #"(the line has no seq and was numbered 1 within its input: give "seq" to continue a stored session)"# + "\n"), "\(r.stderr)")
        let given = try dir.file("given.ndjson", #"{"session":"demo-1","seq":24,"t":"2026-11-20T10:05:00Z","type":"mark","label":"more"}"# + "\n"
            + #"{"session":"demo-1","t":"2026-11-20T10:05:01Z","type":"mark","label":"after"}"# + "\n")
        let ok = navlog("ingest", given, "--store", store)
        #expect(ok.status == 0, "\(ok.stderr)")
        let seqs = navlog("cat", store, "--session", "demo-1", "--type", "mark").stdout
        #expect(seqs.contains(#""label":"more","seq":24"#) && seqs.contains(#""label":"after","seq":25"#), "\(seqs)")
    }

    /// The reading commands' answers on a store, to compare before and after a re-run.
    static func answers(_ store: String) -> [String] {
        var out: [String] = []
        for args in [["sessions", store, "--json"], ["paths", store, "--format", "csv"],
                     ["funnel", store, "--step", "*", "--step", "*", "--format", "csv"],
                     ["export", "events", store, "--format", "ndjson"]] {
            let r = navlog(args)
            #expect(r.status == 0, "\(args): \(r.stderr)")
            out.append(r.stdout)
        }
        return out
    }

    /// Each import format run twice on the same source: the second stores
    /// nothing (every event already stored), `verify` is ok, answers do not change.
    @Test(arguments: [
        ["ga4", "ga4.ndjson"],
        ["csv", "events.csv", "--session", "user_id,session_id", "--time", "timestamp", "--event", "event",
         "--screens", "screen_view", "--screen-name", "screen"],
        ["react-navigation", "react-navigation.ndjson"],
        ["swiftui-path", "swiftui-path.json", "--stack", "main"],
    ])
    func anImportRunTwiceStoresNothingTheSecondTime(_ args: [String]) throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        // A copy, so that its modification time (swiftui-path's default time) is the test's own.
        let source = try dir.file(args[1], try String(contentsOfFile: ImportCommandTests.fixture(args[1]), encoding: .utf8))
        let command = ["import", args[0], source, "--store", store, "--json"] + args.dropFirst(2)
        let first = navlog(command)
        #expect(first.status == 0, "\(first.stderr)")
        let firstReport = try #require(try JSONSerialization.jsonObject(with: Data(first.stdout.utf8)) as? [String: Any])
        let stored = try #require(firstReport["stored"] as? Int)
        #expect(stored > 0)
        let before = Self.answers(store)
        let second = navlog(command)
        #expect(second.status == 0, "\(second.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(second.stdout.utf8)) as? [String: Any])
        #expect(report["stored"] as? Int == 0)
        #expect(report["duplicates"] as? Int == stored)
        #expect(navlog("verify", store).status == 0)
        #expect(Self.answers(store) == before)
    }
}
