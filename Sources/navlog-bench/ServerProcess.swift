#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running `navlog serve` for `navlog-bench serve`: started on
/// 127.0.0.1 port 0 with its standard error in a file, from which the port
/// it bound is read; its peak RSS is the kernel's `VmHWM` of the process.
final class ServerProcess {
    let pid: pid_t
    let port: Int
    private var reaped = false

    /// Starts `navlog serve --store STORE --listen 127.0.0.1:0 [--keys KEYS]`
    /// and waits (at most 30 s) until it says where it listens.
    init(navlog: String, store: String, keys: String? = nil, log: String) throws(BenchmarkFailure) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let arguments = ["serve", "--store", store, "--listen", "127.0.0.1:0"] + (keys.map { ["--keys", $0] } ?? [])
        let argv: [UnsafeMutablePointer<CChar>?] = ([navlog] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, navlog, &actions, nil, argv, environ)
        guard spawned == 0 else { throw BenchmarkFailure("cannot run \(navlog): \(String(cString: strerror(spawned)))") }
        pid = child
        let deadline = monotonicSeconds() + 30
        var found: Int?
        while found == nil, monotonicSeconds() < deadline {
            if let text = readTextFile(log), let range = text.firstRange(of: "listening on http://127.0.0.1:") {
                found = Int(text[range.upperBound...].prefix { $0.isNumber })
            }
            if found == nil {
                var status: Int32 = 0
                if waitpid(child, &status, WNOHANG) == child {
                    throw BenchmarkFailure("navlog serve exited (status \(status >> 8)) before listening: \(readTextFile(log) ?? "")")
                }
                usleep(10_000)
            }
        }
        guard let found else {
            kill(child, SIGKILL)
            _ = waitpid(child, nil, 0)
            throw BenchmarkFailure("navlog serve did not listen within 30 s: \(readTextFile(log) ?? "")")
        }
        port = found
    }

    deinit { if !reaped { kill(pid, SIGKILL); _ = waitpid(pid, nil, 0) } }

    /// The process's peak resident set so far (`VmHWM`), in bytes.
    var peakRSS: Int { statusField("VmHWM") }
    /// Its resident set now (`VmRSS`), in bytes.
    var currentRSS: Int { statusField("VmRSS") }

    private func statusField(_ name: String) -> Int {
        guard let text = readTextFile("/proc/\(pid)/status"),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Sends `signal` and reaps the process (at most 60 s; then SIGKILL); returns its exit status
    /// (128 + signal when a signal ended it).
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        guard !reaped else { return 0 }
        kill(pid, signal)
        let deadline = monotonicSeconds() + 60
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) != pid {
            if monotonicSeconds() > deadline { kill(pid, SIGKILL); _ = waitpid(pid, &status, 0); break }
            usleep(5_000)
        }
        reaped = true
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
