import Foundation
import Testing
import NavLogTestSupport

/// The viewer in a real browser: headless Chromium driven through chromedriver
/// by Selenium (`Tests/Browser/viewer_check.py`; `tools/setup --test`
/// installs all three), against the real `navlog serve` of a generated store
/// on 127.0.0.1. The script compares what the page draws with `navlog state
/// --json` at random cursors, after keyboard moves, after following a funnel
/// drop-off, at 1440 and 375 px; it saves a PNG of each view, checked here.
/// Without Chromium, chromedriver or selenium these tests fail saying so.
@Suite struct ViewerBrowserTests {
    /// Where the screenshots go: `$NAVLOG_TEST_ARTIFACTS/viewer…`, else `.build/test-artifacts/viewer…`.
    static func artifacts(_ name: String) throws -> String {
        let environment = ProcessInfo.processInfo.environment
        let base = environment["NAVLOG_TEST_ARTIFACTS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? repositoryRoot.appendingPathComponent(".build/test-artifacts").path
        let sanitizer = environment["NAVLOG_TEST_SANITIZER"].map { "-" + $0 } ?? ""
        let path = base + "/" + name + sanitizer
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A store of a few generated sessions, with funnel drop-offs.
    static func store(in dir: TemporaryDirectory) throws -> String {
        let store = dir.file("store")
        let input = try dir.file("in.ndjson", navlog("generate", "--sessions", "12", "--seed", "7", "--events-per-session", "40").stdout)
        let ingested = navlog("ingest", input, "--store", store)
        try #require(ingested.status == 0, "\(ingested.stderr)")
        return store
    }

    /// Runs the driver script in `check` mode; its exit status, output, and the screenshots it reported.
    static func check(url: String, store: String, artifacts: String, extra: [String] = []) -> (status: Int32, text: String, shots: [String]) {
        let script = repositoryRoot.appendingPathComponent("Tests/Browser/viewer_check.py").path
        let r = run("/usr/bin/env", [
            "python3", script, "check", "--url", url, "--navlog", navlogBinary(), "--store", store,
            "--artifacts", artifacts, "--seed", "38",
        ] + extra, environment: ["SE_AVOID_STATS": "true", "NO_PROXY": "*", "no_proxy": "*"])
        let shots = r.stdout.split(separator: "\n").filter { $0.hasPrefix("screenshot ") }.map { String($0.dropFirst("screenshot ".count)) }
        return (r.status, r.stdout + r.stderr, shots)
    }

    /// Each of `names` was saved as a PNG of a real page: the signature, a header at least 300 px wide, more than a few bytes.
    static func expectScreenshots(_ shots: [String], named names: [String], in artifacts: String) {
        for name in names {
            let path = artifacts + "/" + name + ".png"
            #expect(shots.contains(path), "no screenshot \(name) reported")
            guard let data = FileManager.default.contents(atPath: path) else {
                Issue.record("no screenshot at \(path)")
                continue
            }
            let bytes = [UInt8](data)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "\(path) is not a PNG")
            #expect(bytes.count > 8_000, "\(path) is only \(bytes.count) bytes")
            if bytes.count > 24 {
                let width = bytes[16..<20].reduce(0) { $0 << 8 | Int($1) }
                #expect(width >= 300, "\(path) is \(width) px wide")
            }
        }
    }

    @Test(.timeLimit(.minutes(10))) func pagesDrawWhatNavlogStateSays() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(in: dir)
        let server = try ServedStore(store: store)
        defer { _ = server.stop() }
        let artifacts = try Self.artifacts("viewer")
        let r = Self.check(url: server.url, store: store, artifacts: artifacts)
        #expect(r.status == 0, "\(r.text.suffix(4000))")
        var names: [String] = []
        for width in [1440, 375] {
            names += ["sessions", "session", "funnel", "dropoffs", "dropoff-session"].map { "\($0)-\(width)" }
        }
        Self.expectScreenshots(r.shots, named: names, in: artifacts)
    }

    @Test(.timeLimit(.minutes(10))) func withKeysTheLoginFormThenAnHttpOnlyCookie() throws {
        let dir = try TemporaryDirectory()
        let store = try Self.store(in: dir)
        let keys = try dir.file("keys", "read r-viewer-key\nwrite w-viewer-key\n")
        let server = try ServedStore(store: store, ["--keys", keys])
        defer { _ = server.stop() }
        // Without the cookie or a key, the read API stays closed.
        #expect(server.request("GET", "/v1/sessions").status == 401)
        let artifacts = try Self.artifacts("viewer-keys")
        let r = Self.check(url: server.url, store: store, artifacts: artifacts, extra: ["--key", "r-viewer-key"])
        #expect(r.status == 0, "\(r.text.suffix(4000))")
        Self.expectScreenshots(r.shots, named: ["login-1440", "session-keys-1440"], in: artifacts)
    }
}
