import Foundation
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server the test starts as a child (`navlog serve`, nginx), its standard
/// error gathered; stopped (SIGKILL) when released, so none outlives its test.
final class ServerProcess: @unchecked Sendable {
    /// Why a server did not come up.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let process = Process()
    private let errors = OutputBuffer()

    /// Starts `executable` with `args`; `ready` is looked for in its
    /// standard error (or `readyWhen` is polled) for at most `seconds`.
    init(_ executable: String, _ args: [String], seconds: Double = 20) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        let errors = self.errors
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { handle.readabilityHandler = nil } else { errors.append(data) }
        }
        do { try process.run() } catch {
            throw Failure(description: "cannot start \(executable): \(error)")
        }
    }

    deinit { stop(signal: SIGKILL) }

    /// What the server wrote on standard error so far.
    var standardError: String { errors.text }

    /// Waits until `pattern` (a regular expression) matches the server's
    /// standard error, and returns the first capture group; fails after `seconds`.
    func waitFor(_ pattern: String, seconds: Double = 20) throws -> String {
        let regex = try NSRegularExpression(pattern: pattern)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let text = standardError
            if let match = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
               let range = Range(match.range(at: match.numberOfRanges > 1 ? 1 : 0), in: text) {
                return String(text[range])
            }
            if !process.isRunning {
                throw Failure(description: "\(process.executableURL?.path ?? "server") exited (\(process.terminationStatus)): \(text)")
            }
            usleep(10_000)
        }
        throw Failure(description: "\(process.executableURL?.path ?? "server") did not say /\(pattern)/ in \(seconds) s: \(standardError)")
    }

    /// Sends `signal` and waits (at most 20 s) for the child to end.
    func stop(signal: Int32) {
        guard process.isRunning else { return }
        _ = send(signal, to: process.processIdentifier)
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning && Date() < deadline { usleep(5_000) }
    }
}

private func send(_ signal: Int32, to pid: pid_t) -> Int32 { kill(pid, signal) }

/// Bytes a pipe's handler appends while the test reads them.
private final class OutputBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) {
        lock.lock()
        data.append(more)
        lock.unlock()
    }

    var text: String {
        lock.lock()
        defer { lock.unlock() }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `navlog serve --store DIR` on loopback, on `port` (0: one the system picks).
final class Collector {
    let store: String
    let server: ServerProcess
    let port: Int
    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(store: String, port: Int = 0, extra: [String] = []) throws {
        self.store = store
        server = try ServerProcess(navlogPath, ["serve", "--store", store, "--listen", "127.0.0.1:\(port)"] + extra)
        let said = try server.waitFor(#"listening on http://127\.0\.0\.1:([0-9]+)"#)
        guard let port = Int(said) else { throw ServerProcess.Failure(description: "no port in: \(said)") }
        self.port = port
    }
}

/// The built `navlog`.
let navlogPath = productsDirectory().appendingPathComponent("navlog").path

/// Polls `condition` every 10 ms for at most `seconds`; whether it held.
func eventually(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}
