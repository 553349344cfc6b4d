#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic wall time in seconds.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Several timed runs of one piece of work.
struct Timings {
    /// Seconds of each run, in order.
    let seconds: [Double]

    /// The median run.
    var median: Double { Timings.median(seconds) }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }
}

/// Times several pieces of work round-robin: one warm-up round, then
/// `runs` rounds, each running every piece once, in order. On a shared,
/// noisy machine each piece then sees about the same load as its peers, so
/// the ratios of their medians are fair. `runs` 0 runs one round, no warm-up.
func measureInterleaved(runs: Int, _ bodies: [() throws -> Void]) throws -> [Timings] {
    if runs > 0 { for body in bodies { try body() } }
    var seconds = [[Double]](repeating: [], count: bodies.count)
    for _ in 0..<max(1, runs) {
        for (i, body) in bodies.enumerated() {
            let start = monotonicSeconds()
            try body()
            seconds[i].append(monotonicSeconds() - start)
        }
    }
    return seconds.map(Timings.init(seconds:))
}

/// Keeps a value alive and opaque to the optimiser.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}

/// `ru_maxrss` in bytes (kilobytes on Linux, bytes on macOS).
func maxRSSBytes(_ usage: rusage) -> Int {
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)
    #else
    return Int(usage.ru_maxrss) * 1024
    #endif
}

/// Seconds on the monotonic clock (the name the suites written against the first harness use).
func now() -> Double { monotonicSeconds() }
