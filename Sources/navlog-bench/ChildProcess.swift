#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A finished child process: how long it took (wall, from spawn to reaped),
/// its peak RSS and CPU time (user and system, from `wait4`'s rusage) and exit status.
struct ChildRun {
    var seconds: Double
    var peakRSS: Int
    var status: Int32
    var cpuSeconds: Double = 0
}

/// Runs real programs the way a user would, timing the whole process.
enum ChildProcess {
    /// Runs `path args…` with standard output sent to `stdoutPath`
    /// (default /dev/null) and standard input from `stdinPath` (default /dev/null).
    ///
    /// The program is started by a fresh copy of this benchmark (see
    /// ``probeMain(_:)``), not by this process: Linux charges a child the peak
    /// RSS of the process it was spawned from (`exec` keeps the old memory's
    /// high-water mark), which would hide the program's own under the
    /// benchmark's hundreds of megabytes. The probe's own small footprint is
    /// the floor (`/bin/true` shows it).
    static func run(
        _ path: String, _ arguments: [String], stdoutPath: String = "/dev/null", stdinPath: String = "/dev/null"
    ) throws(BenchmarkFailure) -> ChildRun {
        let resultPath = probeResultPath
        unlink(resultPath)
        let direct = try spawnAndWait(selfPath, [probeFlag, resultPath, path] + arguments, stdoutPath: stdoutPath, stdinPath: stdinPath)
        defer { unlink(resultPath) }
        guard direct.status == 0, let text = readTextFile(resultPath) else {
            throw BenchmarkFailure("cannot run \(path) through the probe (status \(direct.status))")
        }
        let fields = text.split(separator: " ")
        guard fields.count == 4, let seconds = Double(fields[0]), let rss = Int(fields[1]), let status = Int32(fields[2]),
              let cpu = Double(fields[3]) else {
            throw BenchmarkFailure("bad probe result: \(text)")
        }
        return ChildRun(seconds: seconds, peakRSS: rss, status: status, cpuSeconds: cpu)
    }

    /// The peak RSS of `path args…` as GNU time reports it (`/usr/bin/time -f %M`),
    /// or `nil` without GNU time. GNU time forks the program from its own
    /// small process, so the figure is the program's own, with no floor.
    static func peakRSSByGNUTime(_ path: String, _ arguments: [String]) throws(BenchmarkFailure) -> Int? {
        let time = "/usr/bin/time"
        guard access(time, X_OK) == 0 else { return nil }
        let output = probeResultPath + ".rss"
        defer { unlink(output) }
        _ = try runChecked(time, ["-f", "%M", "-o", output, path] + arguments)
        guard let text = readTextFile(output),
              let kilobytes = Int(text.split(separator: "\n").last(where: { !$0.isEmpty }) ?? "")
        else { throw BenchmarkFailure("cannot read GNU time's output") }
        return kilobytes * 1024
    }

    /// The hidden first argument that makes `navlog-bench` a probe.
    static let probeFlag = "--probe-child"

    /// The probe: `navlog-bench --probe-child RESULT PROGRAM ARGS…` runs
    /// PROGRAM with this process's standard input and output, and writes
    /// `seconds peakRSSBytes status cpuSeconds` to RESULT. Returns its exit status.
    static func probeMain(_ arguments: [String]) -> Int32 {
        guard arguments.count >= 2 else { return 2 }
        do {
            let run = try spawnAndWait(arguments[1], Array(arguments.dropFirst(2)), stdoutPath: nil, stdinPath: nil)
            guard let f = fopen(arguments[0], "w") else { return 2 }
            fputs("\(run.seconds) \(run.peakRSS) \(run.status) \(run.cpuSeconds)", f)
            fclose(f)
            return 0
        } catch {
            printError("navlog-bench probe: \(error)")
            return 2
        }
    }

    private static let probeResultPath: String = {
        let base = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        return "\(base)/navlog-bench-probe-\(getpid())"
    }()

    /// Spawns and reaps a program, timing it (spawn to reaped).
    private static func spawnAndWait(
        _ path: String, _ arguments: [String], stdoutPath: String?, stdinPath: String?
    ) throws(BenchmarkFailure) -> ChildRun {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdinPath { posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0) }
        if let stdoutPath { posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let start = monotonicSeconds()
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkFailure("cannot run \(path): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            if errno != EINTR { throw BenchmarkFailure("wait4 failed: \(String(cString: strerror(errno)))") }
        }
        let seconds = monotonicSeconds() - start
        let exitStatus: Int32 = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        let cpu = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        return ChildRun(seconds: seconds, peakRSS: maxRSSBytes(usage), status: exitStatus, cpuSeconds: cpu)
    }

    /// Like ``run(_:_:stdoutPath:stdinPath:)`` but fails unless the exit status is 0.
    static func runChecked(
        _ path: String, _ arguments: [String], stdoutPath: String = "/dev/null", stdinPath: String = "/dev/null"
    ) throws(BenchmarkFailure) -> ChildRun {
        let result = try run(path, arguments, stdoutPath: stdoutPath, stdinPath: stdinPath)
        guard result.status == 0 else {
            throw BenchmarkFailure("\(path) \(arguments.joined(separator: " ")) exited with \(result.status)")
        }
        return result
    }

    /// This benchmark's own executable.
    static let selfPath: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }()

    /// The absolute path of `name` on `PATH`, or `nil`.
    static func which(_ name: String) -> String? {
        let path = String(cString: getenv("PATH") ?? strdup("/usr/bin:/bin"))
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The `navlog` binary built next to this benchmark (same build
    /// configuration), unless `--navlog PATH` names another.
    static func navlogBinary(_ options: BenchmarkOptions) throws(BenchmarkFailure) -> String {
        if let given = options.string("navlog") { return given }
        let directory = selfPath.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        let candidate = (directory.isEmpty ? "." : directory) + "/navlog"
        guard access(candidate, X_OK) == 0 else {
            throw BenchmarkFailure("no navlog binary at \(candidate): run `swift build -c release` first, or pass --navlog PATH")
        }
        return candidate
    }
}
