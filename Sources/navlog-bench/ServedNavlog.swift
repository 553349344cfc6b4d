import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The running `navlog serve` of `navlog-bench serve`: the shared
/// ``NavlogServe`` (loopback, port 0, its standard error in `log`), with its
/// peak RSS read from the kernel's `VmHWM` of the process — `navlog-serve`'s,
/// which `navlog serve` runs in its own place.
extension NavlogServe {
    /// Starts `navlog serve --store STORE --listen 127.0.0.1:0 [--keys KEYS]`
    /// and waits (at most 30 s) until it says where it listens.
    static func bench(navlog: String, store: String, keys: String? = nil, log: String) throws(BenchmarkFailure) -> NavlogServe {
        do {
            return try NavlogServe(navlog: navlog, store: store, arguments: keys.map { ["--keys", $0] } ?? [], log: log, seconds: 30)
        } catch {
            throw BenchmarkFailure("navlog serve did not start: \(error.description)")
        }
    }

    /// The process's peak resident set so far (`VmHWM`), in bytes.
    var peakRSS: Int { statusField("VmHWM") }
    /// Its resident set now (`VmRSS`), in bytes.
    var currentRSS: Int { statusField("VmRSS") }

    private func statusField(_ name: String) -> Int {
        guard let text = readTextFile("/proc/\(server.pid)/status"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Sends `signal` and reaps the process (at most 60 s; then SIGKILL); its
    /// exit status (128 + signal when a signal ended it).
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 { server.stop(signal, seconds: 60).shellStatus }
}
