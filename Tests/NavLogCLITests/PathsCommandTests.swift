import Foundation
import Testing
import NavLogTestSupport

/// `navlog paths` through the real binary.
@Suite struct PathsCommandTests {
    @Test func transitionsAndPathsFromAStore() throws {
        let (dir, ndjson, store) = try FunnelCommandTests.inputs()
        let transitions = navlog("paths", store, "--format", "csv")
        #expect(transitions.status == 0, "\(transitions.stderr)")
        #expect(transitions.stdout == "rank,from,to,count,sessions,share\n1,Home,Recipe/pie,1,1,1.0000\n")
        let after = navlog("paths", ndjson, "--after", "Home", "--depth", "2", "--format", "csv")
        #expect(after.stdout == "rank,path,count,sessions,share\n1,Home > (end),1,1,0.5000\n2,Home > Recipe/pie > (end),1,1,0.5000\n")
        let before = navlog("paths", ndjson, "--before", "Recipe/*", "--depth", "1", "--format", "json")
        #expect(before.stdout == #"{"anchor":"Recipe/*","depth":1,"mode":"before","rows":[{"count":1,"path":["(start)","Recipe/tart"],"rank":1,"sessions":1,"share":0.5000},{"count":1,"path":["Home","Recipe/pie"],"rank":2,"sessions":1,"share":0.5000}],"sessions":3,"total":2}"# + "\n")
        let file = try dir.file("paths.json", before.stdout)
        let check = run(repositoryRoot.appendingPathComponent("tools/check-schemas").path, ["paths", file])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let table = navlog("paths", ndjson)
        #expect(table.stdout.hasPrefix("1 transitions in 3 sessions\n"))
        #expect(table.stdout.contains("   1  Home > Recipe/pie"))
    }

    @Test func usageErrors() throws {
        let (dir, ndjson, _) = try FunnelCommandTests.inputs()
        _ = dir
        #expect(navlog("paths", ndjson, "--after", "A", "--before", "B").status == 2)
        #expect(navlog("paths", ndjson, "--top", "0").status == 2)
        #expect(navlog("paths", ndjson, "--format", "xml").status == 2)
    }
}
