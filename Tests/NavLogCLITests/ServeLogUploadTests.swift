import Foundation
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `POST /v1/logs` (docs/serve.md, schemas/openapi.yaml): a device's
/// `.navlog` made by `navlog append`, uploaded with `curl` to the real
/// binary on 127.0.0.1, the store read back with `navlog cat`; and the 429
/// of a full write queue.
@Suite struct ServeLogUploadTests {
    /// A log of `count` events of session `id`, made by `navlog append`; its path.
    static func log(_ id: String, count: Int, in dir: TemporaryDirectory) throws -> String {
        let path = dir.file("\(id).navlog")
        let r = navlog("append", path, stdin: ServeUploadTests.events(id, count: count))
        guard r.status == 0 else { throw ServedStore.ServeFailure(description: "append: \(r.stderr)") }
        return path
    }

    static func postLog(_ server: ServedStore, _ body: Data, _ headers: [String: String] = [:]) -> ServedStore.Answer {
        server.request("POST", "/v1/logs", body: body, headers: headers.merging(["Content-Type": "application/x-navlog"]) { a, _ in a })
    }

    @Test(.timeLimit(.minutes(10))) func anUploadedLogIsStoredAsItsEventsAndARetryIsDuplicates() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let log = try Self.log("s-1", count: 40, in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let server = try ServedStore(store: store)
        let first = Self.postLog(server, bytes, ["Navlog-Session": "s-1"])
        #expect(first.status == 200, "\(first.text)")
        #expect(first.text == #"{"duplicates":0,"rejected":[],"stored":40}"# + "\n")
        #expect(navlog("cat", store, "--session", "s-1").stdout == navlog("cat", log).stdout)
        let again = Self.postLog(server, bytes)
        #expect(again.text == #"{"duplicates":40,"rejected":[],"stored":0}"# + "\n")
        // gzip on the wire, the same log again: all duplicates.
        let gzipped = try ServeUploadTests.gzip(bytes, dir: dir)
        let zipped = Self.postLog(server, gzipped, ["Content-Encoding": "gzip"])
        #expect(zipped.text == #"{"duplicates":40,"rejected":[],"stored":0}"# + "\n", "\(zipped.text)")
        #expect(server.stop().status == 0)
        #expect(navlog("cat", store, "--session", "s-1").stdout == navlog("cat", log).stdout)
        #expect(navlog("verify", store).status == 0)
    }

    @Test(.timeLimit(.minutes(10))) func aGzipLogIsStored() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let log = try Self.log("s-2", count: 10, in: dir)
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        let gzipped = try ServeUploadTests.gzip(try Data(contentsOf: URL(fileURLWithPath: log)), dir: dir)
        let answer = Self.postLog(server, gzipped, ["Content-Encoding": "gzip"])
        #expect(answer.text == #"{"duplicates":0,"rejected":[],"stored":10}"# + "\n", "\(answer.text)")
        #expect(navlog("cat", store, "--session", "s-2").stdout == navlog("cat", log).stdout)
    }

    @Test(.timeLimit(.minutes(10))) func aBodyThatIsNotALogOrAWrongKeyStoresNothing() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let keys = try dir.file("keys", "write w-key\nread r-key\n")
        let log = try Self.log("s-1", count: 5, in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let server = try ServedStore(store: store, ["--keys", keys])
        let notALog = Self.postLog(server, Data(ServeUploadTests.events("s-1", count: 5).utf8), ["Authorization": "Bearer w-key"])
        #expect(notALog.status == 400, "\(notALog.text)")
        let message = notALog.json["error"] as? String ?? ""
        #expect(message.contains("not a navlog"), "\(notALog.text)")
        #expect(!message.contains("/"), "the message names no temporary file: \(message)")
        let empty = Self.postLog(server, Data(), ["Authorization": "Bearer w-key"])
        #expect(empty.status == 400, "\(empty.text)")
        for headers in [[:], ["Authorization": "Bearer nope"], ["Authorization": "Bearer r-key"]] {
            let refused = Self.postLog(server, bytes, headers)
            #expect(refused.status == 401, "\(headers): \(refused.text)")
        }
        #expect(server.stop().status == 0)
        #expect(navlog("sessions", store, "--json").stdout == "")
    }

    @Test(.timeLimit(.minutes(10))) func aLogWithACutTailHasItsIntactEventsStored() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let log = try Self.log("s-3", count: 30, in: dir)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: log))
        let cut = bytes.prefix(bytes.count - 5)
        let cutPath = dir.file("cut.navlog")
        try cut.write(to: URL(fileURLWithPath: cutPath))
        let intact = navlog("cat", cutPath).stdout
        #expect(!intact.isEmpty)
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        let answer = Self.postLog(server, Data(cut))
        #expect(answer.status == 200, "\(answer.text)")
        #expect((answer.json["rejected"] as? [Any])?.isEmpty == true, "a torn tail is not a rejection: \(answer.text)")
        #expect(navlog("cat", store, "--session", "s-3").stdout == intact)
    }

    /// Two blocks (two appends), a byte of the second flipped: as `ingest`
    /// does, the first block's events are stored and the damage is the line after them.
    @Test(.timeLimit(.minutes(10))) func aDamagedLogHasWhatPrecedesTheDamageStoredAndTheDamageRejected() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let path = dir.file("d.navlog")
        let all = ServeUploadTests.events("s-5", count: 6).split(separator: "\n").map { $0 + "\n" }
        #expect(navlog("append", path, stdin: all[0..<3].joined()).status == 0)
        #expect(navlog("append", path, stdin: all[3..<6].joined()).status == 0)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        // The second block's index record, then the LZ4 frame before it: its data frame.
        let firstIndex = try #require(bytes.range(of: Data("NLBK".utf8)))
        let secondIndex = try #require(bytes.range(of: Data("NLBK".utf8), in: firstIndex.upperBound..<bytes.endIndex))
        let frame = try #require(bytes.range(of: Data([0x04, 0x22, 0x4D, 0x18]), options: .backwards, in: firstIndex.upperBound..<secondIndex.lowerBound))
        bytes[frame.lowerBound + 28] ^= 0xFF
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        let answer = Self.postLog(server, bytes)
        #expect(answer.status == 200, "\(answer.text)")
        #expect(answer.json["stored"] as? Int == 3, "\(answer.text)")
        let rejected = answer.json["rejected"] as? [[String: Any]] ?? []
        #expect(rejected.map { $0["line"] as? Int } == [4], "\(answer.text)")
        #expect((rejected.first?["reason"] as? String)?.contains("damaged") == true, "\(answer.text)")
        #expect(navlog("cat", store, "--session", "s-5").stdout == all[0..<3].joined())
    }

    /// `--queue-limit 0` (hidden, for tests) makes every upload find the
    /// queue full: the only way to see the 429 without racing the writer.
    @Test(.timeLimit(.minutes(10))) func aFullQueueIs429WithRetryAfterAndStoresNothing() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let log = try Self.log("s-4", count: 3, in: dir)
        let server = try ServedStore(store: store, ["--queue-limit", "0"])
        for answer in [server.upload(ServeUploadTests.events("s-4", count: 3)),
                       Self.postLog(server, try Data(contentsOf: URL(fileURLWithPath: log)))] {
            #expect(answer.status == 429, "\(answer.text)")
            #expect((Int(answer.headers["retry-after"] ?? "") ?? 0) > 0, "\(answer.headers)")
            #expect(answer.headers["content-type"] == "application/json")
            #expect(answer.json["error"] is String, "\(answer.text)")
        }
        #expect(server.stop().status == 0)
        #expect(navlog("sessions", store, "--json").stdout == "")
    }
}
