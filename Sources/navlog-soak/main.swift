// navlog-soak/: The soak test's program (`tools/soak`): one writer at a steady rate, readers following it.
// navlog-soak: one writer appending at a steady rate while N readers follow
// the growing log and project it. Every reader's view must be a consistent
// prefix: the events it sees are exactly the writer's, in seq order, with no
// gap, and its incrementally projected state equals the log's own state at
// that seq (checkpoints + fold). Reports throughput and append→visible
// latency percentiles. Run through `tools/soak`.
//
//   navlog-soak [--seconds S] [--rate EVENTS_PER_S] [--readers N] [--dir DIR]
import Foundation
import NavLogCore
import NavLogSample
import NavLogStore

struct SoakOptions {
    var seconds = 60.0
    var rate = 2000.0
    var readers = 4
    var directory = FileManager.default.temporaryDirectory.path

    init(arguments: [String]) {
        var i = 1
        func value() -> String {
            i += 1
            guard i < arguments.count else { fail("missing value for \(arguments[i - 1])") }
            return arguments[i]
        }
        while i < arguments.count {
            switch arguments[i] {
            case "--seconds": seconds = Double(value()) ?? 0
            case "--rate": rate = Double(value()) ?? 0
            case "--readers": readers = Int(value()) ?? 0
            case "--dir": directory = value()
            default: fail("unknown argument \(arguments[i]); usage: navlog-soak [--seconds S] [--rate N] [--readers N] [--dir DIR]")
            }
            i += 1
        }
        guard seconds > 0, rate > 0, readers >= 1 else { fail("--seconds and --rate must be > 0, --readers ≥ 1") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("navlog-soak: \(message)\n".utf8))
    exit(2)
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// What the writer has acknowledged: each seq's event and the instant its
/// append returned. Readers look events up here to check what they see.
final class Ledger: Sendable {
    private let state = Locked((appendedAt: [Double](), finished: false))
    let events: [Event]

    init(events: [Event]) { self.events = events }

    func acknowledge(at time: Double) { state.withLock { $0.appendedAt.append(time) } }
    func finish() { state.withLock { $0.finished = true } }
    var acknowledged: Int { state.withLock { $0.appendedAt.count } }
    var isFinished: Bool { state.withLock { $0.finished } }
    func appendTime(seq: Int) -> Double? { state.withLock { seq <= $0.appendedAt.count ? $0.appendedAt[seq - 1] : nil } }
}

/// One reader's findings.
final class ReaderReport: @unchecked Sendable {
    var seen = 0
    var latencies: [Double] = []
    var problems: [String] = []
    var stateChecks = 0
    var refreshes = 0
}

func follow(path: String, ledger: Ledger, report: ReaderReport) {
    do {
        let reader = try LogReader(path: path)
        let cursor = reader.cursor()
        var state: NavigationState?
        var last = 0
        while report.problems.isEmpty {
            let finished = ledger.isFinished
            let target = ledger.acknowledged
            _ = try reader.refresh()
            report.refreshes += 1
            while let event = try cursor.next() {
                let now = monotonicSeconds()
                guard event.seq == last + 1 else {
                    report.problems.append("seq \(event.seq) after \(last)")
                    return
                }
                guard event.seq <= ledger.events.count, event == ledger.events[event.seq - 1] else {
                    report.problems.append("seq \(event.seq) differs from the event written")
                    return
                }
                if let appended = ledger.appendTime(seq: event.seq) { report.latencies.append(max(0, now - appended)) }
                last = event.seq
                if state == nil { state = NavigationState(session: event.session) }
                _ = state!.apply(event)
                report.seen += 1
                if last % 997 == 0 {
                    let fromLog = try reader.state(afterSeq: last)
                    report.stateChecks += 1
                    guard fromLog == state else {
                        report.problems.append("state after seq \(last): the log's state differs from the fold")
                        return
                    }
                }
            }
            if finished && last >= target { break }
            usleep(500)
        }
        if let state, last > 0 {
            let fromLog = try reader.state(afterSeq: last)
            report.stateChecks += 1
            if fromLog != state { report.problems.append("final state after seq \(last) differs from the fold") }
        }
    } catch {
        report.problems.append("\(error)")
    }
}

func percentile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

let options = SoakOptions(arguments: CommandLine.arguments)
let total = Int(options.seconds * options.rate) + 1
var generator = SampleGenerator(.init(sessions: 1, seed: 42, eventsPerSession: total...total)).session(at: 0)
var events: [Event] = []
events.reserveCapacity(total)
while let event = generator.next() { events.append(event) }
let ledger = Ledger(events: events)
let path = options.directory + "/navlog-soak-\(getpid()).navlog"
defer { unlink(path) }

let writer: LogWriter
do { writer = try LogWriter(path: path, options: LogWriterOptions(durability: .everyAppend)) } catch { fail("\(error)") }
do { _ = try writer.append(events[0]) } catch { fail("\(error)") }
ledger.acknowledge(at: monotonicSeconds())

let reports = (0..<options.readers).map { _ in ReaderReport() }
let group = DispatchGroup()
for report in reports {
    let thread = Thread { follow(path: path, ledger: ledger, report: report); group.leave() }
    group.enter()
    thread.start()
}

let start = monotonicSeconds()
var behind = 0.0
for (i, event) in events.enumerated().dropFirst() {
    let due = start + Double(i) / options.rate
    let now = monotonicSeconds()
    if due > now { usleep(UInt32((due - now) * 1e6)) } else { behind = max(behind, now - due) }
    do { _ = try writer.append(event) } catch { fail("append seq \(event.seq): \(error)") }
    ledger.acknowledge(at: monotonicSeconds())
}
let writeSeconds = monotonicSeconds() - start
do { try writer.close() } catch { fail("close: \(error)") }
ledger.finish()
group.wait()
let readSeconds = monotonicSeconds() - start

var problems = 0
var all: [Double] = []
for (i, report) in reports.enumerated() {
    problems += report.problems.count
    all += report.latencies
    let status = report.problems.isEmpty ? "consistent prefix" : "PROBLEM: " + report.problems.joined(separator: "; ")
    print("reader \(i): \(report.seen) events, \(report.stateChecks) state checks, \(report.refreshes) refreshes: \(status)")
}
all.sort()
func ms(_ s: Double) -> String { String(format: "%.2f ms", s * 1000) }
print("writer: \(events.count) events in \(String(format: "%.1f", writeSeconds)) s (\(Int(Double(events.count) / writeSeconds)) events/s, durability every-append; at most \(ms(behind)) behind schedule)")
print("readers: \(options.readers), all caught up \(String(format: "%.2f", readSeconds - writeSeconds)) s after the last append")
print("append→visible: p50 \(ms(percentile(all, 0.5))) p90 \(ms(percentile(all, 0.9))) p99 \(ms(percentile(all, 0.99))) p99.9 \(ms(percentile(all, 0.999))) max \(ms(all.last ?? .nan)) over \(all.count) observations")
if problems > 0 { print("FAILED: \(problems) problem(s)"); exit(1) }
print("OK")
