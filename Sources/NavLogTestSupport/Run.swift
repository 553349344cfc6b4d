import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The build products directory that holds the test bundle and the executables.
public func productsDirectory() -> URL {
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
public func run(
    _ executable: String, _ args: [String], stdin: Data? = nil, environment: [String: String] = [:]
) -> (status: Int32, stdout: String, stderr: String) {
    let r = runForBytes(executable, args, stdin: stdin, environment: environment)
    return (r.status, String(decoding: r.stdout, as: UTF8.self), r.stderr)
}

/// ``run(_:_:stdin:environment:)`` with standard output as it was written, byte for byte.
public func runForBytes(
    _ executable: String, _ args: [String], stdin: Data? = nil, environment: [String: String] = [:]
) -> (status: Int32, stdout: [UInt8], stderr: String) {
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
        return (127, [], "cannot run \(executable): \(error)")
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
    return (process.terminationStatus, [UInt8](collected.stdout), String(decoding: collected.stderr, as: UTF8.self))
}

/// Output gathered by the reader threads; read only after `group.wait()`.
private final class Collected: @unchecked Sendable {
    var stdout = Data()
    var stderr = Data()
}

/// The real `lz4` tool (`/usr/bin/lz4` when none is found, so a test fails saying so).
public let lz4Tool: String = {
    for candidate in ["/usr/bin/lz4", "/usr/local/bin/lz4", "/opt/homebrew/bin/lz4"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
        return candidate
    }
    return "/usr/bin/lz4"
}()
