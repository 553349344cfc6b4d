import Foundation
import Testing
import NavLogTestSupport

/// `navlog serve`'s browser viewer, the server side (docs/viewer.md): its
/// files with their types and policy, no path out of its folder, signing
/// in with a key kept in a cookie, and the reads the page adds to the API,
/// each equal to what its command prints. (The page itself is tested in a
/// browser by tools/test.)
@Suite struct ServeViewerTests {
    /// A store of `sessions` generated sessions.
    static func store(_ dir: TemporaryDirectory, sessions: Int = 3) throws -> String {
        let store = dir.file("store")
        let input = try dir.file("in.ndjson", navlog("generate", "--sessions", String(sessions), "--seed", "7", "--events-per-session", "40").stdout)
        #expect(navlog("ingest", input, "--store", store).status == 0)
        return store
    }

    @Test(.timeLimit(.minutes(10))) func pagesAndFilesHaveTheirTypesAndPolicy() throws {
        let dir = try TemporaryDirectory()
        let server = try ServedStore(store: try Self.store(dir))
        defer { _ = server.stop() }
        let shell = server.request("GET", "/")
        #expect(shell.status == 200)
        #expect(shell.headers["content-type"] == "text/html; charset=utf-8")
        #expect(shell.text.contains(#"<script type="module" src="/assets/app.js">"#))
        #expect(shell.text.contains(#"data-keys="off""#), "no keys: the page hides Sign out")
        let policy = shell.headers["content-security-policy"] ?? ""
        for part in ["default-src 'none'", "script-src 'self'", "connect-src 'self'", "style-src 'self'", "frame-ancestors 'none'"] {
            #expect(policy.contains(part), "\(policy)")
        }
        #expect(!policy.contains("http"), "no other origin: \(policy)")
        #expect(shell.headers["x-content-type-options"] == "nosniff")
        for path in ["/sessions", "/sessions/s-000001?at=7&pin=3", "/funnels?steps=tab:home"] {
            let page = server.request("GET", path)
            #expect(page.status == 200, "\(path)")
            #expect(page.body == shell.body, "\(path): the one shell")
        }
        for (name, type) in [("app.js", "text/javascript; charset=utf-8"), ("session.js", "text/javascript; charset=utf-8"),
                             ("viewer.css", "text/css; charset=utf-8"), ("favicon.svg", "image/svg+xml")] {
            let file = server.request("GET", "/assets/\(name)")
            #expect(file.status == 200, "\(name)")
            #expect(file.headers["content-type"] == type, "\(name)")
            #expect(file.headers["content-security-policy"] == policy, "\(name)")
        }
        // Every module the page imports is served, and none is fetched from elsewhere.
        for name in ["app.js", "session.js", "sessions.js", "funnels.js", "scene.js", "timeline.js", "events.js", "diff.js", "compare.js", "api.js", "dom.js"] {
            let text = server.request("GET", "/assets/\(name)").text
            #expect(!text.contains("http://") && !text.contains("https://"), "\(name)")
            for line in text.split(separator: "\n") where line.hasPrefix("import ") {
                let module = line.split(separator: "'").dropFirst().first.map { String($0.dropFirst(2)) } ?? ""
                #expect(server.request("GET", "/assets/\(module)").status == 200, "\(name) imports \(module)")
            }
        }
    }

    @Test(.timeLimit(.minutes(10))) func noPathLeavesTheViewersFolder() throws {
        let dir = try TemporaryDirectory()
        let secret = try dir.file("secret.txt", "do not serve\n")
        let server = try ServedStore(store: try Self.store(dir, sessions: 1))
        defer { _ = server.stop() }
        let escapes = ["/assets/../../../../../../../etc/passwd", "/assets/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
                       "/assets/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/assets/..%2F..%2FPackage.swift", "/assets/" + secret,
                       "/assets/%2Fetc%2Fpasswd", "/assets/..", "/assets/.%2e/index.html", "/assets/Assets", "/assets/"]
        for path in escapes {
            let r = runForBytes("/usr/bin/curl", ["-sS", "--noproxy", "*", "--max-time", "30", "--path-as-is", "-w", "\n%{http_code}", server.url + path])
            let text = String(decoding: r.stdout, as: UTF8.self)
            let status = text.split(separator: "\n").last.map(String.init) ?? ""
            #expect(status == "404" || status == "400", "\(path): \(status)")
            #expect(!text.contains("root:") && !text.contains("do not serve") && !text.contains("PackageDescription"), "\(path)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func signingInKeepsAReadKeyInACookie() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir, sessions: 1)
        let keys = try dir.file("keys", "read peek\nwrite s3cret\n")
        let server = try ServedStore(store: store, ["--keys", keys])
        defer { _ = server.stop() }
        let form = server.request("GET", "/sessions/s-000001?at=5")
        #expect(form.status == 401)
        #expect(form.text.contains(#"action="/login""#))
        #expect(form.text.contains(#"value="/sessions/s-000001?at=5""#))
        #expect(server.request("GET", "/assets/viewer.css").status == 200, "the files need no key")
        #expect(server.request("GET", "/v1/sessions").status == 401)

        let formType = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(server.request("POST", "/login", body: Data("next=%2F".utf8), headers: formType).status == 401, "no key field")
        let wrong = server.request("POST", "/login", body: Data("key=nope&next=%2Fsessions".utf8), headers: formType)
        #expect(wrong.status == 401)
        #expect(wrong.text.contains("That key is not a key of this server."))
        #expect(wrong.headers["set-cookie"] == nil)

        let signed = server.request("POST", "/login", body: Data("key=peek&next=%2Fsessions%2Fs-000001%3Fat%3D5".utf8), headers: formType)
        #expect(signed.status == 303)
        #expect(signed.headers["location"] == "/sessions/s-000001?at=5")
        let cookie = signed.headers["set-cookie"] ?? ""
        #expect(cookie.hasPrefix("navlog_key="))
        for flag in ["HttpOnly", "SameSite=Strict", "Path=/"] { #expect(cookie.contains(flag), "\(cookie)") }
        let pair = String(cookie.prefix { $0 != ";" })
        #expect(!pair.contains("peek"), "the key is not kept as it is typed")

        let withCookie = ["Cookie": pair]
        let page = server.request("GET", "/sessions/s-000001?at=5", headers: withCookie)
        #expect(page.status == 200)
        #expect(page.text.contains(#"data-keys="on""#) && !page.text.contains(#"data-keys="off""#), "keys: the page shows Sign out")
        let listed = server.request("GET", "/v1/sessions", headers: withCookie)
        #expect(listed.status == 200)
        #expect(listed.text == navlog("sessions", store, "--json").stdout)
        #expect(server.request("GET", "/v1/sessions/s-000001/state?at=5", headers: withCookie).status == 200)
        let upload = server.upload(ServeUploadTests.events("s-up", count: 2), headers: withCookie)
        #expect(upload.status == 401, "an upload needs the Bearer write key: \(upload.text)")
        #expect(server.upload(ServeUploadTests.events("s-up", count: 2), headers: ["Authorization": "Bearer s3cret"]).status == 200)
        #expect(server.request("GET", "/v1/sessions", headers: ["Cookie": "navlog_key=00ff"]).status == 401)

        let away = server.request("POST", "/login", body: Data("key=peek&next=%2F%2Fexample.com%2F".utf8), headers: formType)
        #expect(away.status == 303)
        #expect(away.headers["location"] == "/", "never to another site")
        let out = server.request("POST", "/logout", headers: withCookie)
        #expect(out.status == 303)
        #expect(out.headers["set-cookie"]?.contains("Max-Age=0") == true)
    }

    @Test(.timeLimit(.minutes(10))) func theViewersReadsAnswerAsTheCommandsPrint() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir, sessions: 6)
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        for (query, args) in [("", [String]()), ("?version=3.*", ["--app-version", "3.*"]), ("?id=s-00000%5B12%5D", ["--id", "s-00000[12]"])] {
            let answer = server.request("GET", "/v1/session-count" + query)
            #expect(answer.status == 200)
            #expect(answer.text == navlog(["sessions", store, "--count"] + args).stdout, "\(query)")
        }
        #expect(server.request("GET", "/v1/session-count").json["sessions"] as? Int == 6)
        let steps = ["tab:*", "Category/*", "Recipe/*"]
        for reached in [1, 2] {
            let body = #"{"reached":\#(reached),"steps":["tab:*","Category/*","Recipe/*"],"within":"1h"}"#
            let answer = server.request("POST", "/v1/funnel/dropoffs", body: Data(body.utf8))
            let printed = navlog(["funnel", store] + steps.flatMap { ["--step", $0] } + ["--within", "1h", "--dropoffs", String(reached), "--json"])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.text == printed.stdout, "\(printed.stderr)")
        }
        let left = server.request("POST", "/v1/funnel/dropoffs", body: Data(#"{"reached":1,"steps":["tab:*","Recipe/*"]}"#.utf8))
        let leftJSON = left.json
        let funnel = server.request("POST", "/v1/funnel", body: Data(#"{"steps":["tab:*","Recipe/*"]}"#.utf8)).json
        let counts = ((funnel["segments"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]])?.compactMap { $0["sessions"] as? Int } ?? []
        #expect(counts.count == 2)
        #expect(leftJSON["sessions"] as? Int == (counts.first ?? 0) - (counts.last ?? 0), "those that left are those the funnel lost")
        let none = server.request("POST", "/v1/funnel/dropoffs", body: Data(#"{"reached":3,"steps":["a","b"]}"#.utf8))
        #expect(none.text == #"{"dropoffs":[],"reached":3,"sessions":0}"# + "\n", "past the last step: nobody")
        for bad in [#"{"reached":0,"steps":["a","b"]}"#, #"{"steps":["a","b"]}"#, #"{"reached":1,"steps":[]}"#, #"{"reached":"1","steps":["a"]}"#] {
            #expect(server.request("POST", "/v1/funnel/dropoffs", body: Data(bad.utf8)).status == 400, "\(bad)")
        }
    }

    @Test(.timeLimit(.minutes(10))) func visiblePlacesNameTheScreenTheStateShows() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(dir, sessions: 2)
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        var places: Set<String> = []
        for session in ["s-000001", "s-000002"] {
            for at in 0...40 {
                let state = server.request("GET", "/v1/sessions/\(session)/state?at=\(at)").json
                let visible = server.request("GET", "/v1/sessions/\(session)/visible?at=\(at)").json
                #expect(visible["seq"] as? Int == state["seq"] as? Int)
                let scenes = state["scenes"] as? [String: [String: Any]] ?? [:]
                let placed = visible["scenes"] as? [String: [String: Any]] ?? [:]
                #expect(Set(scenes.keys) == Set(placed.keys))
                for (id, scene) in scenes {
                    let place = placed[id] ?? [:]
                    let kind = place["place"] as? String ?? "", name = place["name"] as? String ?? ""
                    places.insert(kind)
                    let screen = scene["screen"] as? String ?? ""
                    switch kind {
                    case "stack":
                        let top = ((scene["stacks"] as? [String: [[String: Any]]])?[name])?.last
                        #expect(top.map(Self.screenName) == screen, "\(session)@\(at): \(place)")
                    case "column":
                        let column = place["column"] as? String ?? ""
                        let first = ((scene["splits"] as? [String: [String: Any]])?[name]?[column] as? [[String: Any]])?.first
                        #expect(first.map(Self.screenName) == screen, "\(session)@\(at): \(place)")
                    case "modal", "tab", "split": #expect(screen == "\(kind):\(name)", "\(session)@\(at)")
                    default: #expect(kind == "root" && screen == "root", "\(session)@\(at): \(place)")
                    }
                }
            }
        }
        #expect(places.isSuperset(of: ["stack", "tab"]), "\(places)")

        // A range of states: each line what state and visible answer at its seq.
        let events = navlog("cat", store, "--session", "s-000002").stdout.split(separator: "\n")
        let seqs = events.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }.compactMap { $0["seq"] as? Int }
        let lines = server.request("GET", "/v1/sessions/s-000002/states?from=5&to=17").text.split(separator: "\n")
        #expect(lines.count == seqs.filter { (5...17).contains($0) }.count && lines.count > 5)
        for (line, seq) in zip(lines, seqs.filter { (5...17).contains($0) }) {
            let state = server.request("GET", "/v1/sessions/s-000002/state?at=\(seq)").text.dropLast()
            let visible = server.request("GET", "/v1/sessions/s-000002/visible?at=\(seq)").text.dropLast()
            #expect(line == #"{"state":\#(state),"visible":\#(visible)}"#, "seq \(seq)")
        }
        #expect(server.request("GET", "/v1/sessions/s-000002/states?from=1&to=1000").text.split(separator: "\n").count == seqs.count)
        let cut = server.request("GET", "/v1/sessions/s-000002/states?from=3&to=5000").text.split(separator: "\n")
        #expect(cut.count == seqs.filter { (3...1002).contains($0) }.count, "to is cut to from + 999")
        #expect(server.request("GET", "/v1/sessions/s-000002/states?from=9&to=8").text.isEmpty)
        #expect(server.request("GET", "/v1/sessions/s-000002/states?from=0&to=8").status == 400)
        #expect(server.request("GET", "/v1/sessions/nope/states?from=1&to=2").status == 404)
    }

    @Test(.timeLimit(.minutes(10))) func missingFilesAreNamedNotACrash() throws {
        let dir = try TemporaryDirectory()
        let alone = dir.file("navlog")
        try copyExecutable(navlogBinary(), to: alone)
        let serve = URL(fileURLWithPath: navlogBinary()).deletingLastPathComponent().appendingPathComponent("navlog-serve").path
        try copyExecutable(serve, to: dir.file("navlog-serve"))
        let server = try ServedStore(store: dir.file("store"), executable: alone)
        let page = server.request("GET", "/sessions")
        #expect(page.status == 500)
        #expect(page.text.contains("navlog_NavLogServer.resources"), "\(page.text)")
        #expect(server.request("GET", "/v1/sessions").status == 200, "the API keeps working")
        let stopped = server.stop()
        #expect(stopped.status == 0)
        #expect(stopped.stderr.components(separatedBy: "the viewer's files are missing").count == 2, "logged once: \(stopped.stderr)")
    }

    static func screenName(_ value: [String: Any]) -> String {
        let type = value["type"] as? String ?? ""
        return (value["id"] as? String).map { "\(type)/\($0)" } ?? type
    }
}
