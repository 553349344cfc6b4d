import Foundation
import NavLogTestSupport

/// The repository's root directory (this file is `Tests/NavLogCLITests/Support/Navlog.swift`).
let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()  // Support
    .deletingLastPathComponent()  // NavLogCLITests
    .deletingLastPathComponent()  // Tests
    .deletingLastPathComponent()

/// The `navlog` binary under test: `$NAVLOG_BIN` when set, else the `navlog`
/// that `swift build` put next to the test bundle.
func navlogBinary() -> String {
    if let path = ProcessInfo.processInfo.environment["NAVLOG_BIN"], !path.isEmpty { return path }
    return productsDirectory().appendingPathComponent("navlog").path
}

/// Runs the `navlog` under test.
func navlog(_ args: String..., stdin: String? = nil, environment: [String: String] = [:]) -> (status: Int32, stdout: String, stderr: String) {
    run(navlogBinary(), args, stdin: stdin.map { Data($0.utf8) }, environment: environment)
}

/// Runs the `navlog` under test with arguments built as an array.
func navlog(_ args: [String], stdin: String? = nil) -> (status: Int32, stdout: String, stderr: String) {
    run(navlogBinary(), args, stdin: stdin.map { Data($0.utf8) })
}

/// The `navlog` under test, started with pipes on its standard input,
/// output and error, for a test that feeds it and signals it as it runs.
final class PipedNavlog {
    let process = Process()
    let input = Pipe(), output = Pipe(), errors = Pipe()

    init(_ args: [String]) throws {
        process.executableURL = URL(fileURLWithPath: navlogBinary())
        process.arguments = args
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
    }

    /// Runs `args` given `first` on standard input; once `store` appears and
    /// half a second has passed, sends SIGINT, then gives it `rest`
    /// (refused once it stopped: fine) and waits for it to end.
    static func interrupted(_ args: [String], store: String, first: Data, rest: Data) throws
        -> (exited: Bool, status: Int32, stdout: String, stderr: String) {
        let running = try PipedNavlog(args)
        let writer = running.input.fileHandleForWriting
        try writer.write(contentsOf: first)
        let started = Date()
        while !FileManager.default.fileExists(atPath: store + "/navlog-store"), Date().timeIntervalSince(started) < 60 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.5)
        kill(running.process.processIdentifier, SIGINT)
        try? writer.write(contentsOf: rest)
        return running.finish()
    }

    /// Runs `args` given `first` on standard input, which then stays open
    /// with nothing more written (a writer gone quiet); once `store` appears
    /// and half a second has passed, sends SIGINT. Whether it ended within
    /// `seconds` of the signal with its input still open (it is then closed
    /// and the process waited for either way), its status and output.
    static func interruptedWhileQuiet(_ args: [String], store: String, first: Data, seconds: Double = 20) throws
        -> (endedWhileOpen: Bool, status: Int32, stdout: String, stderr: String) {
        let running = try PipedNavlog(args)
        try running.input.fileHandleForWriting.write(contentsOf: first)
        let started = Date()
        while !FileManager.default.fileExists(atPath: store + "/navlog-store"), Date().timeIntervalSince(started) < 60 {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 0.5)
        kill(running.process.processIdentifier, SIGINT)
        let signalled = Date()
        while running.process.isRunning, Date().timeIntervalSince(signalled) < seconds {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let endedWhileOpen = !running.process.isRunning
        let (_, status, stdout, stderr) = running.finish()
        return (endedWhileOpen, status, stdout, stderr)
    }

    /// Closes its input, waits for it to end, and returns what it printed.
    func finish() -> (exited: Bool, status: Int32, stdout: String, stderr: String) {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (process.terminationReason == .exit, process.terminationStatus, stdout, stderr)
    }
}
