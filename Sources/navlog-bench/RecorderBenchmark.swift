// `navlog-bench recorder`: the caller-side cost of NavigationRecorder per
// recorded event, and its sustained events/s to disk, beside the raw
// LogWriter in the same run.
import Foundation
import NavLogCore
import NavLogRecorder
import NavLogStore
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) private func nanoseconds() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

/// The kinds recorded, in turn (the mix of navlog-bench's parse lines).
private let benchKinds: [EventKind] = [
    .stackPush(stack: "home", value: RouteValue(type: "Recipe", id: "apple-pie")),
    .tabSelect(tab: "search"),
    .stackPop(stack: "home", count: 1),
    .mark(label: "purchase"),
]

private func percentile(_ sorted: [Int64], _ p: Double) -> Int64 {
    sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

private func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// Per-call nanoseconds of `body`, timed one call at a time, minus the
/// timer's own median cost.
private func timeCalls(_ count: Int, timerCost: Int64, _ body: (Int) -> Void) -> [Int64] {
    var samples = [Int64](repeating: 0, count: count)
    for i in 0..<count {
        let start = nanoseconds()
        body(i)
        samples[i] = max(0, nanoseconds() - start - timerCost)
    }
    return samples.sorted()
}

func runRecorderBenchmark() {
    let directory = try! TemporaryDirectory()
    let dir = directory.path
    defer { directory.remove() }
    print("machine: \(machineDescription())")

    var timer: [Int64] = []
    for _ in 0..<100_000 { let a = nanoseconds(); timer.append(nanoseconds() - a) }
    timer.sort()
    let timerCost = timer[timer.count / 2]
    print("timer (clock_gettime pair) median: \(timerCost) ns, subtracted from per-call figures")

    let runs = 5
    let burst = 4_000          // fits the default buffer: no backpressure
    let bursts = 50
    let sustained = 1_000_000  // as fast as possible: the writer sets the pace
    var recMedian: [Double] = [], recP99: [Double] = [], rawMedian: [Double] = [], rawP99: [Double] = []
    var recRate: [Double] = [], rawRate: [Double] = [], susMedian: [Double] = [], susP99: [Double] = []

    for run in 0..<runs {
        // Caller-side cost: bursts that fit the buffer, flushed between.
        do {
            let recorder = try! NavigationRecorder(path: "\(dir)/burst-\(run).navlog", session: "s-bench",
                                                   options: RecorderOptions(syncIntervalMilliseconds: nil))
            var all: [Int64] = []
            for _ in 0..<bursts {
                all += timeCalls(burst, timerCost: timerCost) { i in recorder.record(benchKinds[i & 3]) }
                try! recorder.flush()
            }
            try! recorder.close()
            all.sort()
            recMedian.append(Double(percentile(all, 0.5)))
            recP99.append(Double(percentile(all, 0.99)))
        }
        // The raw writer, same events, same bursts (its append compresses
        // and writes on the caller's thread).
        do {
            let writer = try! LogWriter(path: "\(dir)/raw-burst-\(run).navlog")
            var all: [Int64] = []
            for _ in 0..<bursts {
                all += timeCalls(burst, timerCost: timerCost) { i in
                    _ = try! writer.append(Event(session: "s-bench", t: Timestamp(milliseconds: 1_800_000_000_000),
                                                 kind: benchKinds[i & 3]))
                }
                try! writer.flush()
            }
            try! writer.close()
            all.sort()
            rawMedian.append(Double(percentile(all, 0.5)))
            rawP99.append(Double(percentile(all, 0.99)))
        }
        // Sustained to disk: events/s from the first call to a durable flush.
        do {
            let recorder = try! NavigationRecorder(path: "\(dir)/sustained-\(run).navlog", session: "s-bench",
                                                   options: RecorderOptions(syncIntervalMilliseconds: nil))
            let start = nanoseconds()
            let samples = timeCalls(sustained, timerCost: timerCost) { i in recorder.record(benchKinds[i & 3]) }
            try! recorder.flush()
            let seconds = Double(nanoseconds() - start) / 1e9
            try! recorder.close()
            recRate.append(Double(sustained) / seconds)
            susMedian.append(Double(percentile(samples, 0.5)))
            susP99.append(Double(percentile(samples, 0.99)))
        }
        do {
            let writer = try! LogWriter(path: "\(dir)/raw-sustained-\(run).navlog")
            let start = nanoseconds()
            for i in 0..<sustained {
                _ = try! writer.append(Event(session: "s-bench", t: Timestamp(milliseconds: 1_800_000_000_000),
                                             kind: benchKinds[i & 3]))
            }
            try! writer.flush()
            let seconds = Double(nanoseconds() - start) / 1e9
            try! writer.close()
            rawRate.append(Double(sustained) / seconds)
        }
    }
    func ns(_ v: [Double]) -> String { String(format: "%.0f ns", median(v)) }
    print("medians of \(runs) runs")
    print("caller cost, bursts of \(burst) (no backpressure), \(bursts * burst) calls a run:")
    print("  recorder.record  median \(ns(recMedian)), p99 \(ns(recP99))")
    print("  LogWriter.append median \(ns(rawMedian)), p99 \(ns(rawP99))")
    print(String(format: "  ratio recorder/raw: median %.2f, p99 %.2f",
                 median(recMedian) / median(rawMedian), median(recP99) / median(rawP99)))
    print("sustained, \(sustained) events as fast as possible, until durable:")
    print(String(format: "  recorder  %.0f events/s", median(recRate))
          + " (caller median \(ns(susMedian)), p99 \(ns(susP99)), the writer setting the pace)")
    print(String(format: "  LogWriter %.0f events/s", median(rawRate)))
    print(String(format: "  ratio recorder/raw: %.2f", median(recRate) / median(rawRate)))
}
