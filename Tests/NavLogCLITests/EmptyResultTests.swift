import Foundation
import Testing
import NavLogTestSupport

/// A result that is empty because nothing matched is printed as ever, exit
/// status unchanged, and one line on stderr says what matched nothing.
@Suite struct EmptyResultTests {
    static func expectNote(_ args: [String], stdout: String? = nil, _ note: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        let r = run(navlogBinary(), args)
        #expect(r.status == 0, "\(args): \(r.stderr)", sourceLocation: sourceLocation)
        if let stdout { #expect(r.stdout == stdout, "\(args)", sourceLocation: sourceLocation) }
        #expect(r.stderr == "navlog: \(note)\n", "\(args)", sourceLocation: sourceLocation)
    }

    @Test func funnelsPathsAndCatSayWhatMatchedNothing() throws {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        // A store with no sessions (an empty directory is no store).
        let empty = dir.file("empty")
        #expect(navlog("ingest", try dir.file("nothing.ndjson", ""), "--store", empty).status == 0)
        let header = "step,pattern,sessions,conversion_from_start,conversion_from_previous,median_seconds_from_previous\n"
        Self.expectNote(["funnel", store, "--step", "", "--format", "csv"], stdout: header + "1,,0,,0.0000,\n",
                        #"funnel: no session has an occurrence of step 1, """#)
        Self.expectNote(["funnel", ndjson, "--step", "Nope/*", "--step", "*", "--format", "csv"],
                        #"funnel: no session has an occurrence of step 1, "Nope/*""#)
        // A later step that matches nothing is noted too, whatever its position; a step that matches
        // something but is never reached in order is not.
        Self.expectNote(["funnel", ndjson, "--step", "*", "--step", "mark:purchse", "--format", "csv"],
                        #"funnel: no session has an occurrence of step 2, "mark:purchse""#)
        Self.expectNote(["funnel", ndjson, "--step", "*", "--step", "*", "--step", "Nope/*", "--format", "csv"],
                        #"funnel: no session has an occurrence of step 3, "Nope/*""#)
        Self.expectNote(["funnel", store, "--step", "*", "--by", "app.versio", "--format", "csv"],
                        "funnel: no session has a value for --by app.versio in its session.start")
        Self.expectNote(["funnel", empty, "--step", "*", "--format", "csv"], stdout: header + "1,*,0,,,\n",
                        "funnel: no sessions in the inputs")
        Self.expectNote(["funnel", store, "--step", "*", "--from", "2030-01-01T00:00:00Z", "--format", "csv"],
                        "funnel: no session started within --from/--to")
        Self.expectNote(["paths", store, "--before", "modal:checkout", "--format", "csv"], stdout: "rank,path,count,sessions,share\n",
                        #"paths: no screen view matches "modal:checkout""#)
        Self.expectNote(["paths", empty, "--format", "csv"], stdout: "rank,from,to,count,sessions,share\n",
                        "paths: no sessions in the inputs")
        let log = store + "/" + v1Log("s-a")
        Self.expectNote(["cat", log, "--from", "20", "--to", "5"], stdout: "", "cat: --from 20 is after --to 5: no events")
        Self.expectNote(["cat", log, "--type", "nope"], stdout: "", "cat: no event of \(log) matches --type nope")
        // A result that is not empty says nothing more.
        let full = navlog("funnel", store, "--step", "*", "--format", "csv")
        #expect(full.status == 0 && full.stderr == "")
    }
}
