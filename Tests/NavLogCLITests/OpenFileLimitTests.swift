import Foundation
import Testing
import NavLogTestSupport

/// Under a limit on open files too low to run (`ulimit -n` below 16),
/// every command refuses in one line naming the limit, exit 2, instead of
/// dying inside the dispatch library (exit 132); at 16 they run.
@Suite struct OpenFileLimitTests {
    @Test func aLowLimitOnOpenFilesIsOneLineNamingIt() throws {
        let dir = try TemporaryDirectory()
        let ndjson = try dir.file("in.ndjson", navlog("generate", "--sessions", "40", "--seed", "3").stdout)
        #expect(navlog("ingest", ndjson, "--store", dir.file("st")).status == 0)
        let commands = [["funnel", dir.file("st"), "--step", "*"], ["export", "events", dir.file("st")],
                        ["funnel", ndjson, "--step", "*"], ["paths", dir.file("st"), "--after", "*"],
                        ["ingest", ndjson, "--store", dir.file("st")]]
        for limit in [5, 6] {
            for args in commands {
                let r = run("/bin/sh", ["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", navlogBinary()] + args)
                #expect(r.status == 2 && r.stderr == "navlog: the limit on open files (ulimit -n) is \(limit); navlog needs at least 16: "
                        + "raise it (ulimit -n 1024) and run again\n", "\(limit) \(args): \(r.status) \(r.stderr.prefix(300))")
                #expect(r.stdout.isEmpty)
            }
        }
        for args in commands {
            let r = run("/bin/sh", ["-c", "ulimit -n 16 && exec \"$0\" \"$@\"", navlogBinary()] + args)
            #expect(r.status == 0, "16 \(args): \(r.stderr.prefix(300))")
        }
    }
}
