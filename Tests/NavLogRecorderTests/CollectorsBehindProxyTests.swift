import Foundation
import NavLogCore
import NavLogRecorder
import NavLogStore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Two collectors, each with its own store, behind nginx routing on
/// `Navlog-Session` (docs/collectors.md): every session lands whole in one
/// store, and the analytics given both stores answer as one store would.
@Suite("Collectors behind a proxy")
struct CollectorsBehindProxyTests {
    /// nginx from the system (Debian keeps it in /usr/sbin).
    static let nginx: String? = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx", "/opt/homebrew/bin/nginx"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// nginx on 127.0.0.1:`port` in front of `upstreams`, as its own child
    /// (no daemon, no master), everything it writes in `dir`.
    static func startNginx(_ nginx: String, dir: TemporaryDirectory, port: Int, upstreams: [Int]) throws -> ServerProcess {
        let prefix = dir.file("nginx")
        try FileManager.default.createDirectory(atPath: prefix + "/temp", withIntermediateDirectories: true)
        let servers = upstreams.map { "        server 127.0.0.1:\($0);" }.joined(separator: "\n")
        let config = """
            daemon off;
            master_process off;
            worker_processes 1;
            pid \(prefix)/nginx.pid;
            error_log \(prefix)/error.log warn;
            events { worker_connections 64; }
            http {
                access_log off;
                client_body_temp_path \(prefix)/temp/body;
                proxy_temp_path \(prefix)/temp/proxy;
                fastcgi_temp_path \(prefix)/temp/fastcgi;
                uwsgi_temp_path \(prefix)/temp/uwsgi;
                scgi_temp_path \(prefix)/temp/scgi;
                client_max_body_size 11m;
                upstream collectors {
                    hash $http_navlog_session consistent;
            \(servers)
                }
                server {
                    listen 127.0.0.1:\(port);
                    location / {
                        proxy_pass http://collectors;
                        proxy_http_version 1.1;
                        proxy_set_header Connection "";
                    }
                }
            }

            """
        let path = prefix + "/nginx.conf"
        try Data(config.utf8).write(to: URL(fileURLWithPath: path))
        let server = try ServerProcess(nginx, ["-p", prefix, "-e", prefix + "/error.log", "-c", path])
        guard eventually(seconds: 10, { acceptsConnections(port: port) }) else {
            let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
            throw ServerProcess.Failure("nginx did not listen on 127.0.0.1:\(port): \(server.standardError) \(log)")
        }
        return server
    }

    @Test func sessionsLandWholeAndTheStoresAnswerAsOne() throws {
        let nginx = try #require(Self.nginx, "nginx is not installed (tools/setup --test installs it): this test runs it")
        let dir = try TemporaryDirectory()
        let collectors = [try Collector(store: dir.file("a")), try Collector(store: dir.file("b"))]
        let port = try freeLoopbackPort()
        let proxy = try Self.startNginx(nginx, dir: dir, port: port, upstreams: collectors.map(\.port))
        defer { proxy.stop(SIGKILL) }

        // Sessions to record: `navlog generate`, replayed through recorders.
        let generated = run(navlogPath, ["generate", "--sessions", "12", "--seed", "7"])
        try #require(generated.status == 0, "\(generated.stderr)")
        var sessions: [String: [Event]] = [:]
        for line in generated.stdout.split(separator: "\n") {
            let event = try EventParser.parse(String(line))
            sessions[event.session, default: []].append(event)
        }
        let url = URL(string: "http://127.0.0.1:\(port)")!
        var logs: [String: String] = [:]
        for (session, events) in sessions.sorted(by: { $0.key < $1.key }) {
            let log = dir.file(session + ".navlog")
            logs[session] = log
            guard case .sessionStart(let app, let device) = events[0].kind else {
                Issue.record("\(session) does not start with session.start")
                continue
            }
            let recorder = try NavigationRecorder(path: log, session: session, app: app, device: device,
                                                  options: UploadTests.options(url))
            for e in events.dropFirst() {
                recorder.record(e.kind, scene: e.scene, cause: e.cause, meta: e.meta, extra: e.extra)
            }
            #expect(try UploadTests.waitForUpload(recorder), "\(session): \(String(describing: recorder.uploadStatus))")
            try recorder.close()
        }
        for collector in collectors { collector.server.stop(SIGTERM) }

        // Each session is whole in exactly one store.
        var landed = [0, 0]
        for (session, log) in logs.sorted(by: { $0.key < $1.key }) {
            let local = run(navlogPath, ["cat", log])
            let found = collectors.map { run(navlogPath, ["cat", $0.store, "--session", session]) }
            let holders = found.indices.filter { found[$0].status == 0 }
            #expect(holders.count == 1, "\(session) is in \(holders.count) stores")
            for i in holders {
                landed[i] += 1
                #expect(found[i].stdout == local.stdout, "\(session) in store \(i) differs from its log")
            }
        }
        #expect(landed.allSatisfy { $0 > 0 }, "the proxy spread the sessions as \(landed)")

        // One store holding everything, for comparison.
        let one = dir.file("one")
        let ingest = run(navlogPath, ["ingest"] + logs.values.sorted() + ["--store", one])
        try #require(ingest.status == 0, "\(ingest.stderr)")
        let both = collectors.map(\.store)
        let questions: [[String]] = [
            ["funnel", "--step", "tab:*", "--step", "Category/*", "--step", "Step/1", "--format", "json"],
            ["funnel", "--step", "*", "--step", "modal:*", "--format", "csv"],
            ["paths", "--format", "json"],
            ["paths", "--after", "tab:home", "--format", "csv"],
        ]
        for question in questions {
            let split = run(navlogPath, [question[0]] + both + question.dropFirst())
            let whole = run(navlogPath, [question[0], one] + question.dropFirst())
            #expect(split.status == 0 && whole.status == 0, "\(question): \(split.stderr) \(whole.stderr)")
            #expect(!whole.stdout.isEmpty)
            #expect(split.stdout == whole.stdout, "\(question)")
        }
        // Export writes rows store after store: the same rows, in another order.
        let split = run(navlogPath, ["export", "screens"] + both + ["--format", "csv"])
        let whole = run(navlogPath, ["export", "screens", one, "--format", "csv"])
        #expect(split.status == 0 && whole.status == 0, "\(split.stderr) \(whole.stderr)")
        let splitRows = split.stdout.split(separator: "\n"), wholeRows = whole.stdout.split(separator: "\n")
        #expect(wholeRows.count > 12)
        #expect(splitRows.first == wholeRows.first)
        #expect(splitRows.dropFirst().sorted() == wholeRows.dropFirst().sorted())
    }
}
