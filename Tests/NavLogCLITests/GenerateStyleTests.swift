import Foundation
import Testing
import NavLogTestSupport

/// `navlog generate --style producer`, `--events-per-session heavy` and
/// `--screens N`, through the real binary.
@Suite("GenerateStyle")
struct GenerateStyleTests {
    static func navlog(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        run(navlogBinary(), arguments)
    }

    /// Every event of a store made by ingesting `generate ARGS --style
    /// STYLE`, as the store holds it (canonical lines, `export events
    /// --format ndjson`: what `navlog cat STORE --session ID` prints, for
    /// every session), and the `sessions` listing.
    static func storedEvents(_ dir: TemporaryDirectory, _ style: String, _ arguments: [String]) -> String {
        let input = dir.file("\(style).ndjson"), store = dir.file("\(style).store")
        let generated = navlog(["generate"] + arguments + ["--style", style, "-o", input])
        #expect(generated.status == 0, "\(generated.stderr)")
        let ingested = navlog(["ingest", input, "--store", store])
        #expect(ingested.status == 0, "\(ingested.stderr)")
        let events = navlog(["export", "events", store, "--format", "ndjson"])
        #expect(events.status == 0, "\(events.stderr)")
        let sessions = navlog(["sessions", store, "--json"])
        #expect(sessions.status == 0, "\(sessions.stderr)")
        return events.stdout + sessions.stdout
    }

    @Test("producer lines store what canonical lines store", arguments: [
        ["--sessions", "300", "--events-per-session", "2-12", "--interleave", "--seed", "4"],
        ["--sessions", "300", "--events-per-session", "heavy", "--screens", "20", "--interleave", "--seed", "5"],
    ])
    func producerStyleStoresTheSameEvents(_ arguments: [String]) throws {
        let dir = try TemporaryDirectory()
        let canonical = Self.storedEvents(dir, "navlog", arguments)
        let producer = Self.storedEvents(dir, "producer", arguments)
        #expect(canonical.split(separator: "\n").count > 600)
        #expect(producer == canonical)
    }

    @Test func navlogStyleIsTheDefault() {
        let plain = Self.navlog(["generate", "--sessions", "20", "--seed", "2"])
        let styled = Self.navlog(["generate", "--sessions", "20", "--seed", "2", "--style", "navlog"])
        #expect(plain.status == 0 && styled.status == 0)
        #expect(styled.stdout == plain.stdout)
    }

    @Test func producerLinesDifferInEachOfFourWays() {
        let arguments = ["generate", "--sessions", "200", "--events-per-session", "3-10", "--seed", "8"]
        let canonical = Self.navlog(arguments).stdout.split(separator: "\n").map(String.init)
        let producer = Self.navlog(arguments + ["--style", "producer"]).stdout.split(separator: "\n").map(String.init)
        #expect(producer.count == canonical.count && canonical.count > 800)
        let time = /"t": "(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)\.(\d+)([+-]\d\d:\d\d)"/
        var withoutSeq = 0
        var orders = Set<[String]>()
        for (line, original) in zip(producer, canonical) {
            // 1. Keys not sorted: sorted order has session < t < type.
            let order = ["\"session\": ", "\"t\": ", "\"type\": "]
                .map { line.range(of: $0).map { line.distance(from: line.startIndex, to: $0.lowerBound) } ?? -1 }
            #expect(!order.contains(-1) && !(order[0] < order[1] && order[1] < order[2]), "\(line)")
            orders.insert(order.sorted().map { position in ["session", "t", "type"][order.firstIndex(of: position)!] })
            // 2. A space after `:` and `,`; none in the canonical line outside strings.
            #expect(line.contains("\": ") && line.contains(", \""))
            #expect(!original.contains("\": ") && !original.contains(", \""))
            // 3. `t` with an offset and 3–6 fraction digits, never `Z`.
            let match = line.firstMatch(of: time)
            #expect(match != nil, "\(line)")
            if let match {
                #expect((3...6).contains(match.output.2.count))
                #expect(match.output.3 != "+00:00")
            }
            // 4. `seq` absent on some lines.
            if !line.contains("\"seq\": ") { withoutSeq += 1 }
        }
        #expect(orders.count >= 2)
        let share = Double(withoutSeq) / Double(producer.count)
        #expect(share > 0.08 && share < 0.25, "\(withoutSeq) of \(producer.count) lines without seq")
    }

    @Test func heavyTailedLengthsAndTwentyScreens() throws {
        let dir = try TemporaryDirectory()
        let input = dir.file("e.ndjson"), store = dir.file("e.store")
        let generated = Self.navlog(["generate", "--sessions", "3000", "--events-per-session", "heavy", "--screens", "20",
                                     "--interleave", "--live-sessions", "200", "-o", input])
        #expect(generated.status == 0, "\(generated.stderr)")
        #expect(Self.navlog(["ingest", input, "--store", store]).status == 0)
        let sessions = Self.navlog(["sessions", store, "--json"])
        #expect(sessions.status == 0)
        let lengths = sessions.stdout.matches(of: /"events":(\d+)/).map { Int($0.output.1)! }.sorted()
        #expect(lengths.count == 3000)
        let ones = lengths.filter { $0 == 1 }.count
        #expect(ones > 850 && ones < 1150, "\(ones) sessions of one event")
        #expect(lengths[lengths.count / 2] == 3)
        #expect(lengths.last! >= 100)
        let screens = Self.navlog(["export", "screens", store])
        #expect(screens.status == 0)
        let names = Set(screens.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",").last! })
        #expect(names.count == 20, "\(names.sorted())")
    }

    @Test func screensBelowFourAreAUsageError() {
        let run = Self.navlog(["generate", "--screens", "3"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--screens"))
    }
}
