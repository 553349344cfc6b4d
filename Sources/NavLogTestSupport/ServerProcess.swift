import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server a test or a benchmark starts as a child (`navlog serve`, nginx):
/// its standard error goes to a file that ``waitFor(_:seconds:)`` reads; it is
/// stopped with ``stop(_:seconds:)`` (SIGKILL when it outlasts the wait) and,
/// at the latest, killed and reaped when released, so none outlives its test.
///
/// ```swift
/// let nginx = try ServerProcess("/usr/sbin/nginx", ["-p", prefix, "-c", conf])
/// _ = try nginx.waitFor("started", seconds: 10)
/// let ended = nginx.stop(SIGTERM)      // ended.status == 0 after a clean exit
/// ```
public final class ServerProcess: @unchecked Sendable {
    /// Why a server did not start, did not come up, or cannot be named.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// How a stopped server ended.
    public struct Ending: Sendable {
        /// Its exit status; nil when a signal ended it.
        public let status: Int32?
        /// The signal that ended it; nil when it exited.
        public let signal: Int32?
        /// Everything it wrote on standard error.
        public let stderr: String
        /// Its status the shell's way: the exit status, or 128 + the signal.
        public var shellStatus: Int32 { status ?? 128 + (signal ?? 0) }
    }

    /// The child's process id.
    public let pid: pid_t
    /// The program that runs.
    public let executable: String
    /// The file its standard error goes to.
    public let log: String
    private let scratch: TemporaryDirectory?
    private let lock = NSLock()
    private var ended: (status: Int32?, signal: Int32?)?

    /// Starts `executable` with `arguments`, standard input and output on
    /// /dev/null, standard error into `log` (a file of its own in a temporary
    /// directory when nil).
    public init(_ executable: String, _ arguments: [String], log: String? = nil) throws(Failure) {
        if let log {
            scratch = nil
            self.log = log
        } else {
            do { scratch = try TemporaryDirectory() } catch { throw Failure(error.description) }
            self.log = scratch!.file("stderr.log")
        }
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, self.log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard spawned == 0 else { throw Failure("cannot run \(executable): \(String(cString: strerror(spawned)))") }
        pid = child
    }

    deinit { _ = stop(SIGKILL, seconds: 10) }

    /// What the server has written on standard error so far.
    public var standardError: String {
        (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    /// Whether the child is still running (reaps it when it has ended).
    public var isRunning: Bool {
        lock.withLock {
            if ended != nil { return false }
            return !reap(blocking: false)
        }
    }

    /// Waits until `pattern` (a regular expression) matches the server's
    /// standard error and returns its first capture group (the whole match
    /// without one); fails when the server ends first or after `seconds`.
    public func waitFor(_ pattern: String, seconds: Double = 60) throws(Failure) -> String {
        let regex: NSRegularExpression
        do { regex = try NSRegularExpression(pattern: pattern) } catch { throw Failure("bad pattern /\(pattern)/: \(error)") }
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let text = standardError
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
               let range = Range(match.range(at: match.numberOfRanges > 1 ? 1 : 0), in: text) {
                return String(text[range])
            }
            if !isRunning {
                throw Failure("\(executable) ended before saying /\(pattern)/: \(text)")
            }
            if Date() >= deadline {
                throw Failure("\(executable) did not say /\(pattern)/ in \(seconds) s: \(text)")
            }
            usleep(5_000)
        }
    }

    /// Sends `signal` (when still running) and waits for the end, SIGKILL
    /// after `seconds`; how it ended. Stopping again answers the same.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, seconds: Double = 60) -> Ending {
        lock.withLock {
            if ended == nil, !reap(blocking: false) {
                kill(pid, signal)
                let deadline = Date().addingTimeInterval(seconds)
                while !reap(blocking: false) {
                    if Date() >= deadline {
                        kill(pid, SIGKILL)
                        _ = reap(blocking: true)
                        break
                    }
                    usleep(5_000)
                }
            }
        }
        let (status, signal) = lock.withLock { ended ?? (nil, nil) }
        return Ending(status: status, signal: signal, stderr: standardError)
    }

    /// Reaps the child when it has ended (or waits for it when `blocking`);
    /// whether it has. Called with `lock` held.
    private func reap(blocking: Bool) -> Bool {
        if ended != nil { return true }
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        guard reaped == pid else { return reaped < 0 && errno == ECHILD ? markLost() : false }
        let signal = status & 0x7f
        ended = signal == 0 ? ((status >> 8) & 0xff, nil) : (nil, signal)
        return true
    }

    /// A child that cannot be waited for any more counts as ended, with no status.
    private func markLost() -> Bool {
        ended = (nil, nil)
        return true
    }
}

/// `navlog serve --store STORE --listen 127.0.0.1:PORT` (loopback only; port 0:
/// one the system picks), started as a ``ServerProcess`` and waited for until
/// it says where it listens; its port read from what it printed.
///
/// ```swift
/// let served = try NavlogServe(navlog: navlogPath, store: dir.file("store"))
/// // … requests to served.url (http://127.0.0.1:PORT) …
/// #expect(served.server.stop().status == 0)
/// ```
public final class NavlogServe: Sendable {
    /// The running server.
    public let server: ServerProcess
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Starts the `navlog` at `navlog` serving `store` with `arguments` after
    /// the listen address; standard error into `log` (a temporary file when
    /// nil); waits at most `seconds` for it to listen.
    public init(
        navlog: String, store: String, port: Int = 0, arguments: [String] = [], log: String? = nil, seconds: Double = 60
    ) throws(ServerProcess.Failure) {
        server = try ServerProcess(navlog, ["serve", "--store", store, "--listen", "127.0.0.1:\(port)"] + arguments, log: log)
        let said: String
        do {
            said = try server.waitFor(#"listening on http://127\.0\.0\.1:([0-9]+)"#, seconds: seconds)
        } catch {
            server.stop(SIGKILL, seconds: 5)
            throw error
        }
        guard let bound = Int(said) else { throw ServerProcess.Failure("navlog serve printed no port: \(said)") }
        self.port = bound
    }
}
