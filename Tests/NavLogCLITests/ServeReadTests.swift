import Foundation
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog serve`, the read side: each answer is byte for byte what the
/// command prints for the same store (docs/serve.md, schemas/openapi.yaml).
@Suite struct ServeReadTests {
    @Test(.timeLimit(.minutes(10))) func readsAnswerAsTheCommandsPrint() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let input = try dir.file("in.ndjson", navlog("generate", "--sessions", "4", "--seed", "7", "--events-per-session", "40").stdout)
        #expect(navlog("ingest", input, "--store", store).status == 0)
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        func same(_ path: String, _ command: [String], method: String = "GET", body: String? = nil) {
            let answer = server.request(method, path, body: body.map { Data($0.utf8) })
            let printed = navlog(command)
            #expect(answer.status == 200, "\(path): \(answer.text)")
            #expect(!printed.stdout.isEmpty, "\(command): \(printed.stderr)")
            #expect(answer.text == printed.stdout, "\(path)")
        }
        same("/v1/sessions", ["sessions", store, "--json"])
        same("/v1/sessions?version=3.*&since=2026-11-20T10:00:00Z", ["sessions", store, "--json", "--app-version", "3.*", "--since", "2026-11-20T10:00:00Z"])
        let lines = navlog("sessions", store, "--json").stdout.split(separator: "\n").map { String($0) + "\n" }
        #expect(lines.count == 4)
        #expect(server.request("GET", "/v1/sessions?limit=2").text == lines[0] + lines[1])
        #expect(server.request("GET", "/v1/sessions?limit=2&after=s-000002").text == lines[2] + lines[3])
        #expect(server.request("GET", "/v1/sessions/s-000003").text == lines[2])
        for at in ["end", "7", "2026-11-20T10:00:05Z"] {
            same("/v1/sessions/s-000001/state?at=\(at)", ["state", store, "--session", "s-000001", "--at", at, "--json"])
        }
        same("/v1/sessions/s-000002/events", ["cat", store, "--session", "s-000002"])
        same("/v1/sessions/s-000002/events?from=3&to=9", ["cat", store, "--session", "s-000002", "--from", "3", "--to", "9"])
        same("/v1/diff?a=s-000001&b=s-000002&at=10", ["diff", store, store, "--session-a", "s-000001", "--session-b", "s-000002", "--at", "10", "--json"])
        same("/v1/sessions/s-000003/replay", ["replay", store, "--session", "s-000003", "--json"])
        same("/v1/sessions/s-000003/replay?from=4&to=12", ["replay", store, "--session", "s-000003", "--from", "4", "--to", "12", "--json"])
        for at in ["end", "9"] {
            same("/v1/sessions/s-000004/blame?at=\(at)", ["blame", store, "--session", "s-000004", "--at", at, "--json"])
        }
        same("/v1/bisect?a=s-000001&b=s-000002", ["bisect", store, store, "--session-a", "s-000001", "--session-b", "s-000002", "--json"])
        same("/v1/bisect?a=s-000001&b=s-000001", ["bisect", store, store, "--session-a", "s-000001", "--session-b", "s-000001", "--json"])
        same("/v1/funnel", ["funnel", store, "--step", "*", "--step", "Recipe/*", "--within", "10m", "--by", "app.version", "--format", "json"],
             method: "POST", body: #"{"by":"app.version","steps":["*","Recipe/*"],"within":"10m"}"#)
        same("/v1/paths", ["paths", store, "--json"], method: "POST", body: "{}")
        same("/v1/paths", ["paths", store, "--after", "*", "--top", "3", "--depth", "2", "--json"],
             method: "POST", body: #"{"after":"*","depth":2,"top":3}"#)
    }

    @Test(.timeLimit(.minutes(10))) func unknownSessionsAre404AndBadQueries400() throws {
        let dir = try TemporaryDirectory()
        let server = try ServedStore(store: dir.file("store"))
        defer { _ = server.stop() }
        #expect(server.upload(ServeUploadTests.events("s-1", count: 3)).status == 200)
        for path in ["/v1/sessions/nope", "/v1/sessions/nope/state", "/v1/sessions/nope/events", "/v1/diff?a=s-1&b=nope",
                     "/v1/sessions/nope/replay", "/v1/sessions/nope/blame", "/v1/bisect?a=nope&b=s-1"] {
            let answer = server.request("GET", path)
            #expect(answer.status == 404, "\(path)")
            #expect((answer.json["error"] as? String)?.contains("nope") == true, "\(path): \(answer.text)")
        }
        for path in ["/v1/sessions/s-1/state?at=soon", "/v1/sessions/s-1/events?from=-1", "/v1/sessions?limit=0", "/v1/diff?a=s-1"] {
            #expect(server.request("GET", path).status == 400, "\(path)")
        }
        for body in ["[]", #"{"steps":[]}"#, #"{"steps":["*"],"within":"soon"}"#, #"{"steps":["*"],"extra":1}"#] {
            #expect(server.request("POST", "/v1/funnel", body: Data(body.utf8)).status == 400, "\(body)")
        }
        #expect(server.request("POST", "/v1/paths", body: Data(#"{"after":"a","before":"b"}"#.utf8)).status == 400)
    }
}
