import Foundation
import NavLogTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog serve` runs the server program `navlog-serve` from beside
/// `navlog`, in its own place: the process that serves is the one started.
@Suite struct ServeProgramTests {
    /// A `navlog` copied without its server names the missing file and what
    /// to do, in one line, and exits 2 without touching the store.
    @Test(.timeLimit(.minutes(10))) func aMissingServerIsOneLineAndExitTwo() throws {
        let dir = try TemporaryDirectory()
        let alone = dir.file("navlog")
        try copyExecutable(navlogBinary(), to: alone)
        let server = try ServerProcess(alone, ["serve", "--store", dir.file("store"), "--listen", "127.0.0.1:0"])
        let deadline = ContinuousClock.now + .seconds(20)
        while server.isRunning, ContinuousClock.now < deadline { usleep(10_000) }
        let ended = server.stop(SIGKILL, seconds: 5)
        #expect(ended.status == 2, "\(ended.stderr)")
        #expect(ended.stderr == "navlog: navlog-serve is missing: no \(dir.file("navlog-serve")) beside navlog; install it there "
                + "with its navlog_NavLogServer.resources folder (swift build -c release builds both)\n")
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    #if os(Linux)
    /// The server runs as the process `navlog serve` started (execv, no
    /// child): its pid's executable is `navlog-serve`, and SIGTERM to that
    /// pid stops it gracefully (exit 0).
    @Test(.timeLimit(.minutes(10))) func theServerIsTheProcessStarted() throws {
        let dir = try TemporaryDirectory()
        let served = try NavlogServe(navlog: navlogBinary(), store: dir.file("store"))
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(served.server.pid)/exe")
        #expect(executable.hasSuffix("/navlog-serve"), "\(executable)")
        let ended = served.server.stop(SIGTERM, seconds: 30)
        #expect(ended.status == 0, "\(ended.stderr)")
    }
    #endif
}
