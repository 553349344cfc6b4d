import Foundation
import NavLogCore
@testable import NavLogStore
import NavLogTestSupport

/// Canonical-looking NDJSON lines (not parsed here; bytes for the frame layer).
func sampleLines(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    var out: [UInt8] = []
    let screens = ["Recipe", "Category", "Settings", "Profile"]
    for seq in 1...max(count, 1) {
        let screen = screens[Int(rng.next() % 4)]
        let id = rng.next() % 500
        let line = #"{"seq":\#(seq),"session":"s-1","stack":"home","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":"\#(id)","type":"\#(screen)"}}"#
        out.append(contentsOf: line.utf8)
        out.append(0x0A)
    }
    return out
}

/// A varied, realistic session: `count` events with seqs 1…count (or with
/// gaps when `gaps`), t rising 50 ms – 4 s per event.
func sampleEvents(_ count: Int, session: String = "s-1", seed: UInt64 = 1, gaps: Bool = false) -> [Event] {
    var rng = SeededGenerator(seed: seed)
    var events: [Event] = []
    events.reserveCapacity(count)
    var t: Int64 = 1_795_168_800_000
    var seq = 0
    let recipes = ["apple-pie", "banana-bread", "carrot-cake", "dumplings", "eclairs", "focaccia"]
    let tabs = ["home", "search", "favorites", "settings"]
    for i in 0..<count {
        seq += gaps ? Int(rng.next() % 3) + 1 : 1
        t += Int64(rng.next() % 4000) + 50
        let r = rng.next() % 100
        let kind: EventKind
        if i == 0 {
            kind = .sessionStart(app: ["version": .string("3.2.1")], device: ["model": .string("iPhone15,2")])
        } else if r < 35 {
            kind = .stackPush(stack: tabs[Int(rng.next() % 2)],
                              value: RouteValue(type: "Recipe", id: recipes[Int(rng.next() % 6)]))
        } else if r < 60 {
            kind = .stackPop(stack: tabs[Int(rng.next() % 2)], count: nil)
        } else if r < 70 {
            kind = .tabSelect(tab: tabs[Int(rng.next() % 4)])
        } else if r < 80 {
            kind = .splitSelect(split: "main", column: .sidebar,
                                selection: [RouteValue(type: "Category", id: "c\(rng.next() % 5)")])
        } else if r < 87 {
            kind = .modalPresent(modal: "settings", style: .sheet)
        } else if r < 93 {
            kind = .modalDismiss(modal: nil)
        } else if r < 97 {
            kind = .mark(label: "purchase")
        } else {
            kind = .urlOpen(url: "https://example.com/r/\(rng.next() % 100)")
        }
        events.append(Event(session: session, seq: seq, t: Timestamp(milliseconds: t), kind: kind,
                            meta: r == 95 ? ["price": .number("\(rng.next() % 99)")] : nil))
    }
    return events
}

/// Writes `events` to a new log at `path` and closes it.
@discardableResult
func writeLog(_ path: String, _ events: [Event], options: LogWriterOptions = LogWriterOptions(), close: Bool = true) throws -> LogWriter {
    let writer = try LogWriter(path: path, options: options)
    for event in events { try writer.append(event) }
    if close { try writer.close() }
    return writer
}

func fileBytes(_ path: String) -> [UInt8] {
    [UInt8](FileManager.default.contents(atPath: path) ?? Data())
}

func writeFile(_ path: String, _ bytes: [UInt8]) {
    _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

/// The step of an exhaustive every-byte / every-bit loop: 1 (every case)
/// normally; `sampled` when the suite runs under a sanitizer
/// (`NAVLOG_TEST_SANITIZER` set by `tools/test`), where every case would
/// take too long. The normal pass of `tools/test` still covers every case.
func exhaustiveStride(sampled: Int) -> Int {
    ProcessInfo.processInfo.environment["NAVLOG_TEST_SANITIZER"].map { $0.isEmpty ? 1 : sampled } ?? 1
}
