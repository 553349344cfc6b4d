import Foundation
import NavLogStore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog serve` stopped while clients upload: by SIGTERM (it answers what
/// it took, commits, exits 0) and by SIGKILL (nothing it acknowledged is
/// lost, and the store verifies). Every event whose request got a 200 must
/// be in the store.
@Suite struct ServeShutdownTests {
    /// The highest seq acknowledged for each session, written by the client threads.
    final class Acknowledged: Sendable {
        private let seqs = Locked<[String: Int]>([:])

        func record(_ session: String, _ seq: Int) { seqs.withLock { $0[session] = max($0[session] ?? 0, seq) } }
        var all: [String: Int] { seqs.withLock { $0 } }
    }

    /// `clients` threads, each uploading batches of 20 events of a session
    /// of its own (`prefix-N`) until a request fails or `batches` are sent.
    static func upload(to server: ServedStore, prefix: String, clients: Int, batches: Int, into acknowledged: Acknowledged) {
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            let session = "\(prefix)-\(client)"
            for batch in 0..<batches {
                let answer = server.upload(ServeUploadTests.events(session, from: batch * 20 + 1, count: 20))
                guard answer.status == 200 else { return }
                acknowledged.record(session, batch * 20 + 20)
            }
        }
    }

    /// Every acknowledged event of each session is in the store, in order.
    static func expectStored(_ store: String, _ acknowledged: [String: Int]) {
        for (session, last) in acknowledged {
            let lines = navlog("cat", store, "--session", session).stdout.split(separator: "\n").map(String.init)
            #expect(lines.count >= last, "\(session): \(lines.count) stored, \(last) acknowledged")
            let expected = ServeUploadTests.events(session, count: last).split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(last)) == expected, "\(session)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func sigtermAnswersWhatItTookCommitsAndExitsZero() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let server = try ServedStore(store: store)
        let acknowledged = Acknowledged()
        let done = DispatchSemaphore(value: 0)
        let runner = Thread {
            Self.upload(to: server, prefix: "t", clients: 4, batches: 200, into: acknowledged)
            done.signal()
        }
        runner.start()
        let deadline = Date().addingTimeInterval(30)
        while acknowledged.all.values.reduce(0, +) < 200, Date() < deadline { usleep(2_000) }
        let stopped = server.stop(SIGTERM)
        done.wait()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let seen = acknowledged.all
        #expect(seen.values.reduce(0, +) >= 200)
        Self.expectStored(store, seen)
        #expect(navlog("verify", store).status == 0)
    }

    @Test(.timeLimit(.minutes(10))) func sigkillLosesNothingAcknowledged() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let acknowledged = Acknowledged()
        var rng = SeededGenerator(seed: 37)
        for round in 0..<5 {
            let server = try ServedStore(store: store)
            let done = DispatchSemaphore(value: 0)
            let runner = Thread {
                Self.upload(to: server, prefix: "k\(round)", clients: 3, batches: 100, into: acknowledged)
                done.signal()
            }
            runner.start()
            usleep(UInt32(50_000 + rng.next() % 250_000))
            _ = server.stop(SIGKILL)
            done.wait()
        }
        let seen = acknowledged.all
        #expect(seen.values.reduce(0, +) > 0)
        // Opened once more, the store cuts what the last kill tore.
        #expect(try ServedStore(store: store).stop().status == 0)
        let verified = navlog("verify", store)
        #expect(verified.status == 0, "\(verified.stdout)\(verified.stderr)")
        Self.expectStored(store, seen)
    }
}
