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
