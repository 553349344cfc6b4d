#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The median of several runs' seconds, each run timed separately.
func medianSeconds(runs: Int, _ body: () -> Void) -> (median: Double, all: [Double]) {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = monotonicSeconds()
        body()
        times.append(monotonicSeconds() - start)
    }
    let sorted = times.sorted()
    let mid = sorted.count / 2
    let median = sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    return (median, times)
}

/// Peak resident set size of this process, in bytes.
func peakRSSBytes() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF_VALUE, &usage)
    #if canImport(Darwin)
    return Int(usage.ru_maxrss)
    #else
    return Int(usage.ru_maxrss) * 1024
    #endif
}

/// A short description of the machine, for the report.
func machineDescription() -> String {
    var name = utsname()
    uname(&name)
    let machine = withUnsafeBytes(of: &name.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let system = withUnsafeBytes(of: &name.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    var cpu = "unknown CPU"
    if let f = fopen("/proc/cpuinfo", "r") {
        defer { fclose(f) }
        var line: UnsafeMutablePointer<CChar>? = nil
        var cap = 0
        while getline(&line, &cap, f) > 0 {
            let s = String(cString: line!)
            if s.hasPrefix("model name") {
                cpu = s.split(separator: ":", maxSplits: 1).last.map { $0.trimmingPrefix(" ").filter { $0 != "\n" } } ?? cpu
                break
            }
        }
        free(line)
    }
    let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
    return "\(system) \(machine), \(cpu), \(cores) cores"
}

#if canImport(Glibc)
private let RUSAGE_SELF_VALUE = __rusage_who_t(RUSAGE_SELF.rawValue)
#else
private let RUSAGE_SELF_VALUE = RUSAGE_SELF
#endif
