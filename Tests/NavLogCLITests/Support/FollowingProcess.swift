import Foundation
import NavLogStore
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `navlog` process left running (`cat --follow`) whose standard output
/// is collected on a thread of its own, so a test can wait for what it has
/// printed so far, signal it and collect the rest.
final class FollowingProcess: @unchecked Sendable {
    private let process = Process()
    /// Standard output and standard error so far.
    private let printed = Locked((out: Data(), err: Data()))
    private let done = DispatchGroup()

    /// Starts `executable` (the built `navlog` unless said) with `arguments`.
    init(_ arguments: [String], executable: String = navlogBinary()) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        for (handle, isOut) in [(out.fileHandleForReading, true), (err.fileHandleForReading, false)] {
            done.enter()
            Thread {
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    self.printed.withLock { if isOut { $0.out.append(data) } else { $0.err.append(data) } }
                }
                self.done.leave()
            }.start()
        }
    }

    /// The whole lines printed so far.
    var lines: [String] {
        let text = printed.withLock { String(decoding: $0.out, as: UTF8.self) }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// What it has written on standard error so far.
    var errorText: String { printed.withLock { String(decoding: $0.err, as: UTF8.self) } }

    /// Its process id.
    var pid: Int32 { process.processIdentifier }

    /// Waits (up to `seconds`, for slow sanitizer builds) until at least
    /// `count` lines are printed, or the process ends; the lines then.
    @discardableResult
    func waitForLines(_ count: Int, seconds: Double = 120) -> [String] {
        let deadline = Date().addingTimeInterval(seconds)
        while lines.count < count, process.isRunning, Date() < deadline { usleep(2_000) }
        return lines
    }

    /// Whether the process is still running after `seconds`.
    func stillRunning(after seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(2_000) }
        return process.isRunning
    }

    /// Sends `signal` (when still running), waits for the end (SIGKILL
    /// after `seconds`); its exit status (nil when a signal ended it), lines
    /// and standard error.
    func finish(signal: Int32? = nil, seconds: Double = 120) -> (status: Int32?, lines: [String], stderr: String) {
        if let signal, process.isRunning { kill(process.processIdentifier, signal) }
        if stillRunning(after: seconds) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        done.wait()
        let status = process.terminationReason == .exit ? process.terminationStatus : nil
        return (status, lines, printed.withLock { String(decoding: $0.err, as: UTF8.self) })
    }
}

/// Starts the `navlog` under test with `arguments`, its output discarded;
/// `input`, when given, is its standard input.
func startNavlog(_ arguments: [String], input: Pipe? = nil) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: navlogBinary())
    process.arguments = arguments
    if let input { process.standardInput = input }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
}
