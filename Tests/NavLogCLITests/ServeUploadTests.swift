import Foundation
import NavLogCore
import NavLogStore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog serve`, the write side (docs/serve.md, schemas/openapi.yaml): the
/// real binary on 127.0.0.1, uploads through `curl`, the store read back
/// with `navlog cat` and `navlog verify`.
@Suite struct ServeUploadTests {
    /// `count` canonical events of session `id` from seq `from` on.
    static func events(_ id: String, from: Int = 1, count: Int) -> String {
        (from..<(from + count)).map { seq in
            seq == 1
                ? #"{"app":{"version":"1.0"},"seq":1,"session":"\#(id)","t":"2026-01-05T10:00:00.000Z","type":"session.start"}"#
                : #"{"seq":\#(seq),"session":"\#(id)","t":"2026-01-05T10:00:\#(String(format: "%02d", seq % 60)).000Z","type":"scene.open"}"#
        }.joined(separator: "\n") + "\n"
    }

    @Test(.timeLimit(.minutes(10))) func anUploadIsStoredDurablyAndARetryIsDuplicates() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let server = try ServedStore(store: store)
        let body = Self.events("s-1", count: 5)
        let first = server.upload(body)
        #expect(first.status == 200, "\(first.text)")
        #expect(first.text == #"{"duplicates":0,"rejected":[],"stored":5}"# + "\n")
        #expect(first.headers["content-type"] == "application/json")
        // Acknowledged means readable by another process now, while the server runs.
        #expect(navlog("cat", store, "--session", "s-1").stdout == body)
        let again = server.upload(body, headers: ["Navlog-Session": "s-1"])
        #expect(again.text == #"{"duplicates":5,"rejected":[],"stored":0}"# + "\n")
        let stopped = server.stop(SIGTERM)
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(navlog("cat", store, "--session", "s-1").stdout == body)
        #expect(navlog("verify", store).status == 0)
    }

    @Test(.timeLimit(.minutes(10))) func anEventWithoutSeqIsA400NamingItsLineAndNothingIsStored() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        let body = Self.events("s-1", count: 1)
            + #"{"session":"s-1","t":"2026-01-05T10:00:01.000Z","type":"scene.open"}"# + "\n\n"
            + #"{"seq":3,"session":"s-1","t":"2026-01-05T10:00:02.000Z","type":"scene.open"}"# + "\n"
        let answer = server.upload(body)
        #expect(answer.status == 400)
        let error = answer.json["error"] as? String ?? ""
        #expect(error.contains("line 2") && error.contains("seq"), "\(error)")
        #expect(navlog("cat", store, "--session", "s-1").stdout.isEmpty)
    }

    @Test(.timeLimit(.minutes(10))) func anInvalidLineIsRejectedWithItsLineAndTheRestIsStored() throws {
        let dir = try TemporaryDirectory()
        let server = try ServedStore(store: dir.file("store"))
        defer { _ = server.stop() }
        let body = Self.events("s-1", count: 2)
            + #"{"seq":3,"session":"s-1","t":"2026-01-05T10:00:02.000Z","type":"nope","#  + "\n"
            + #"{"seq":4,"session":"s-1","t":"2026-01-05T10:00:03.000Z","type":"scene.open"}"# + "\n"
        let answer = server.upload(body)
        #expect(answer.status == 200)
        #expect(answer.json["stored"] as? Int == 3)
        let rejected = answer.json["rejected"] as? [[String: Any]] ?? []
        #expect(rejected.map { $0["line"] as? Int } == [3], "\(rejected)")
    }

    @Test(.timeLimit(.minutes(10))) func wholeRequestsAreRefusedWithTheirStatusAndNothingIsStored() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let server = try ServedStore(store: store)
        // Not NDJSON: 400.
        let garbage = server.upload("hello\n")
        #expect(garbage.status == 400)
        #expect((garbage.json["error"] as? String)?.contains("not NDJSON") == true, "\(garbage.text)")
        // An event of another session than the request names: 400, none of it stored.
        let mixed = server.upload(Self.events("s-1", count: 2) + Self.events("s-2", count: 1), headers: ["Navlog-Session": "s-1"])
        #expect(mixed.status == 400)
        #expect((mixed.json["error"] as? String)?.contains("line 3") == true, "\(mixed.text)")
        // Over 5,000 events: 413 naming the limit.
        let many = server.upload(Self.events("s-3", count: 5_001))
        #expect(many.status == 413)
        #expect((many.json["error"] as? String)?.contains("5000") == true, "\(many.text)")
        // Over 10 MiB: 413.
        let big = server.request("POST", "/v1/events", body: Data(repeating: 0x20, count: (10 << 20) + 1))
        #expect(big.status == 413, "\(big.text)")
        #expect((big.json["error"] as? String)?.contains("limit") == true)
        #expect(server.stop().status == 0)
        #expect(navlog("sessions", store, "--json").stdout == "")
    }

    @Test(.timeLimit(.minutes(10))) func keysAreAskedForAndAWrongOneStoresNothing() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let keys = try dir.file("keys", "# keys\nwrite w-key\nread r-key\n")
        let server = try ServedStore(store: store, ["--keys", keys])
        let body = Self.events("s-1", count: 3)
        for headers in [[:], ["Authorization": "Bearer nope"], ["Authorization": "Bearer r-key"], ["Authorization": "w-key"]] {
            let refused = server.upload(body, headers: headers)
            #expect(refused.status == 401, "\(headers)")
            #expect(refused.json["error"] is String)
        }
        #expect(navlog("sessions", store, "--json").stdout == "")
        #expect(server.upload(body, headers: ["Authorization": "Bearer w-key"]).status == 200)
        #expect(server.request("GET", "/metrics").status == 200)
        #expect(server.stop().status == 0)
        #expect(navlog("cat", store, "--session", "s-1").stdout == body)
    }

    @Test func withoutKeysItListensOnLoopbackOnly() throws {
        let dir = try TemporaryDirectory()
        let r = navlog("serve", "--store", dir.file("store"), "--listen", "0.0.0.0:0")
        #expect(r.status == 2)
        #expect(r.stderr.contains("--keys") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.file("store")))
    }

    @Test(.timeLimit(.minutes(10))) func gzipBodiesAreReadAndABombStopsAtTheLimit() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        let body = Self.events("s-1", count: 50)
        let gzipped = try Self.gzip(Data(body.utf8), dir: dir)
        let answer = server.request("POST", "/v1/events", body: gzipped, headers: ["Content-Encoding": "gzip"])
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["stored"] as? Int == 50)
        #expect(navlog("cat", store, "--session", "s-1").stdout == body)
        // 64 MiB of blanks squeezed into about 64 KiB: refused at 10 MiB.
        let bomb = try Self.gzip(Data(repeating: 0x0A, count: 64 << 20), dir: dir)
        #expect(bomb.count < 1 << 20)
        let refused = server.request("POST", "/v1/events", body: bomb, headers: ["Content-Encoding": "gzip"])
        #expect(refused.status == 413, "\(refused.text)")
        let broken = server.request("POST", "/v1/events", body: Data("not gzip".utf8), headers: ["Content-Encoding": "gzip"])
        #expect(broken.status == 400)
    }

    /// `data` compressed by the system's `gzip`.
    static func gzip(_ data: Data, dir: TemporaryDirectory) throws -> Data {
        let r = runForBytes("/bin/gzip", ["-c", "-1"], stdin: data)
        guard r.status == 0 else { throw ServedStore.ServeFailure(description: "gzip: \(r.stderr)") }
        return Data(r.stdout)
    }
}
