#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The machine a run was measured on, for the report.
enum Machine {
    /// `Linux x86_64, AMD EPYC, 2 cores (nproc), load 1.23`.
    static var description: String {
        var name = utsname()
        uname(&name)
        let system = cString(of: &name.sysname)
        let arch = cString(of: &name.machine)
        let cores = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        var load = [Double](repeating: 0, count: 3)
        let loads = getloadavg(&load, 3) == 3
            ? ", load average \(load.map { format($0, digits: 2) }.joined(separator: " "))" : ""
        return "\(system) \(arch), \(cpuModel), \(cores) cores (nproc)\(loads)"
    }

    /// The CPU's `model name` from /proc/cpuinfo (or "unknown CPU").
    static var cpuModel: String {
        guard let text = readTextFile("/proc/cpuinfo") else { return "unknown CPU" }
        for line in text.split(separator: "\n") where line.hasPrefix("model name") {
            if let colon = line.firstIndex(of: ":") {
                return String(line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" })
            }
        }
        return "unknown CPU"
    }

    /// Now, as `2026-11-22 23:40 UTC`.
    static var utcDate: String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        func two(_ v: Int32) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min)) UTC"
    }

    private static func cString<T>(of tuple: inout T) -> String {
        withUnsafeBytes(of: &tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}

/// A whole small text file, or `nil`.
func readTextFile(_ path: String) -> String? {
    readBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// A whole file's bytes, or `nil` when it cannot be opened or read.
func readBytes(_ path: String) -> [UInt8]? {
    guard let file = fopen(path, "rb") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&chunk, 1, chunk.count, file)
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return ferror(file) == 0 ? bytes : nil
}
