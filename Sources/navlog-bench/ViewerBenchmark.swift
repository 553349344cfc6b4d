import Foundation
import NavLogTestSupport

/// `navlog-bench viewer`: the viewer in headless Chromium, timed by the page
/// itself. One generated session of `--events` (100,000) events in a fresh
/// store, served by `navlog serve` on 127.0.0.1 (the shared ``NavlogServe``),
/// opened `--runs` (5) times by `Tests/Browser/viewer_check.py timings`, the
/// cursor moved `--moves` (20) times a run with the keyboard. The figures are
/// the page's Performance API entries: the `navlog-open-done` mark after
/// navigation start, and the `navlog-cursor` measures (key press to drawn);
/// beside them, the server's answer time for the same states over plain HTTP,
/// so a miss can be put on the server or on the page.
enum ViewerBenchmark {
    static let suite = BenchmarkSuite(
        name: "viewer", summary: "the viewer in headless Chromium: open and cursor-move times of a 100,000-event session",
        options: ["--events N (100000) --runs N (5) --moves N (20) --script PATH (Tests/Browser/viewer_check.py) --navlog PATH"]) { options in
        try run(options)
    }

    /// The driver script, found from this source file's place in the package unless `--script` names it.
    static func script(_ options: BenchmarkOptions) -> String {
        options.string("script") ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tests/Browser/viewer_check.py").path
    }

    static func run(_ options: BenchmarkOptions) throws {
        let navlog = try ChildProcess.navlogBinary(options)
        let events = try options.int("events", default: 100_000)
        let moves = try options.int("moves", default: 20)
        let runs = options.runs
        let work = try TemporaryDirectory()
        let input = work.file("one.ndjson"), store = work.file("store")
        _ = try ChildProcess.runChecked(navlog, ["generate", "--sessions", "1", "--seed", "\(options.seed)",
                                                 "--events-per-session", "\(events)-\(events)", "--output", input])
        _ = try ChildProcess.runChecked(navlog, ["ingest", input, "--store", store])
        let listed = NavLogTestSupport.run(navlog, ["sessions", store])
        guard listed.status == 0, let session = listed.stdout.split(separator: "\n").dropFirst().first?.split(separator: "\t").first else {
            throw BenchmarkFailure("navlog sessions \(store): \(listed.stderr)")
        }
        let served = try NavlogServe.bench(navlog: navlog, store: store, log: work.file("serve.log"))
        defer { served.stop(SIGTERM) }
        let browser = NavLogTestSupport.run("/usr/bin/env", [
            "python3", script(options), "timings", "--url", served.url, "--session", String(session),
            "--runs", "\(runs)", "--moves", "\(moves)",
        ], environment: ["SE_AVOID_STATS": "true", "NO_PROXY": "*", "no_proxy": "*"])
        guard browser.status == 0,
              let figures = try? JSONSerialization.jsonObject(with: Data(browser.stdout.utf8)) as? [String: Any] else {
            throw BenchmarkFailure("viewer_check.py timings exited \(browser.status): \(browser.stderr)")
        }
        let chromium = NavLogTestSupport.run("/usr/bin/env", ["chromium", "--version"]).stdout
            .split(separator: "\n").first.map(String.init) ?? "Chromium"
        print("viewer benchmark: \(Machine.utcDate), \(Machine.description); \(chromium); navlog \(navlog)")
        print("one session of \(events) events; \(runs) opens, \(moves) cursor moves (ArrowLeft) each\n")
        func ms(_ key: String) -> Double { (figures[key] as? Double) ?? .nan }
        let open = ms("openMedianMs"), cursor = ms("cursorMedianMs")
        let opens = (figures["openMs"] as? [Double] ?? []).map { format($0, digits: 0) }.joined(separator: ", ")
        var table = Table("figure", "measured", "target", "")
        table.add("open: `navlog-open-done` after navigation start, median", "\(format(open)) ms (\(opens))", "≤ 1000 ms",
                  verdict(open, 1000))
        table.add("cursor move: `navlog-cursor`, median of \(figures["cursorMoves"] ?? 0)", "\(format(cursor)) ms", "≤ 50 ms",
                  verdict(cursor, 50))
        table.add("cursor move, slowest", "\(format(ms("cursorMaxMs"))) ms", "", "")
        table.add("server: `GET /v1/sessions/{id}/state?at=N`, median", "\(format(ms("stateAnswerMedianMs"))) ms", "", "")
        table.add("server: the page's HTML", "\(format(ms("pageAnswerMs"))) ms", "", "")
        table.print()
    }

    static func verdict(_ value: Double, _ target: Double) -> String {
        value.isFinite ? (value <= target ? "met" : "missed by \(format(value - target)) ms") : "not measured"
    }
}
