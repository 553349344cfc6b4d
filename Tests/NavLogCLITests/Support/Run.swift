import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The repository's root directory (this file is `Tests/NavLogCLITests/Support/Run.swift`).
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

/// The build products directory that holds the test bundle and the executables.
private func productsDirectory() -> URL {
    #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    #endif
    if let executable = Bundle.main.executableURL { return executable.deletingLastPathComponent() }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}

/// A child that stops reading its stdin must not kill the test process.
private let sigpipeIgnored: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

/// Runs `executable` with `args` to completion, feeding it `stdin` (or
/// nothing), and returns its exit status and what it wrote, decoded as UTF-8.
/// A process that cannot be started gives status 127 and the reason on stderr.
func run(
    _ executable: String, _ args: [String], stdin: Data? = nil, environment: [String: String] = [:]
) -> (status: Int32, stdout: String, stderr: String) {
    _ = sigpipeIgnored
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = args
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let output = Pipe()
    let errors = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = stdin == nil ? FileHandle.nullDevice : input
    do {
        try process.run()
    } catch {
        return (127, "", "cannot run \(executable): \(error)")
    }
    // Drain both pipes while feeding stdin, so no side blocks on a full pipe.
    let collected = Collected()
    let group = DispatchGroup()
    let outHandle = output.fileHandleForReading
    let errHandle = errors.fileHandleForReading
    DispatchQueue.global().async(group: group) { collected.stdout = outHandle.readDataToEndOfFile() }
    DispatchQueue.global().async(group: group) { collected.stderr = errHandle.readDataToEndOfFile() }
    if let stdin {
        let writer = input.fileHandleForWriting
        try? writer.write(contentsOf: stdin)  // EPIPE when the child stopped reading: fine
        try? writer.close()
    }
    group.wait()
    process.waitUntilExit()
    return (process.terminationStatus,
            String(decoding: collected.stdout, as: UTF8.self),
            String(decoding: collected.stderr, as: UTF8.self))
}

/// Output gathered by the reader threads; read only after `group.wait()`.
private final class Collected: @unchecked Sendable {
    var stdout = Data()
    var stderr = Data()
}

/// Runs the `navlog` under test.
func navlog(_ args: String..., stdin: String? = nil, environment: [String: String] = [:]) -> (status: Int32, stdout: String, stderr: String) {
    run(navlogBinary(), args, stdin: stdin.map { Data($0.utf8) }, environment: environment)
}

/// Runs the `navlog` under test with arguments built as an array.
func navlog(_ args: [String], stdin: String? = nil) -> (status: Int32, stdout: String, stderr: String) {
    run(navlogBinary(), args, stdin: stdin.map { Data($0.utf8) })
}

/// A fresh temporary directory, removed when the returned guard is released.
final class TemporaryDirectory: @unchecked Sendable {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("navlog-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// Writes `text` to a file in the directory and returns its path.
    func file(_ name: String, _ text: String) throws -> String {
        let path = url.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
