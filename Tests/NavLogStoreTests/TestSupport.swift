import Foundation
import NavLogCore
@testable import NavLogStore

/// A fresh temporary directory for one test, removed when the value dies.
final class TemporaryDirectory {
    let path: String

    init() {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/navlog-store-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// The result of running a program.
struct ProcessOutput {
    var status: Int32
    var stdout: [UInt8]
    var stderr: String
}

/// Runs `executable` with `arguments`, feeding `input` on stdin; stdout and
/// stderr go through temporary files so that no pipe can fill up.
func run(_ executable: String, _ arguments: [String], input: [UInt8] = []) throws -> ProcessOutput {
    let dir = TemporaryDirectory()
    let inPath = dir.file("stdin"), outPath = dir.file("stdout"), errPath = dir.file("stderr")
    _ = FileManager.default.createFile(atPath: inPath, contents: Data(input))
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardInput = FileHandle(forReadingAtPath: inPath)
    process.standardOutput = FileHandle(forWritingAtPath: outPath)
    process.standardError = FileHandle(forWritingAtPath: errPath)
    try process.run()
    process.waitUntilExit()
    let out = FileManager.default.contents(atPath: outPath) ?? Data()
    let err = FileManager.default.contents(atPath: errPath) ?? Data()
    return ProcessOutput(status: process.terminationStatus, stdout: [UInt8](out),
                         stderr: String(decoding: err, as: UTF8.self))
}

/// The real `lz4` tool.
let lz4Tool: String = {
    for candidate in ["/usr/bin/lz4", "/usr/local/bin/lz4", "/opt/homebrew/bin/lz4"]
    where FileManager.default.isExecutableFile(atPath: candidate) {
        return candidate
    }
    return "/usr/bin/lz4"
}()

/// Deterministic pseudo-random numbers (SplitMix64) so failures reproduce.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Canonical-looking NDJSON lines (not parsed here; bytes for the frame layer).
func sampleLines(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    var out: [UInt8] = []
    let screens = ["Recipe", "Category", "Settings", "Profile"]
    for seq in 1...max(count, 1) {
        let screen = screens[Int(rng.next() % 4)]
        let id = rng.next() % 500
        let line = #"{"seq":\#(seq),"session":"s-1","stack":"home","t":"2026-11-20T10:00:00.000Z","type":"stack.push","value":{"id":"\#(id)","type":"\#(screen)"}}"#
        out.append(contentsOf: line.utf8)
        out.append(0x0A)
    }
    return out
}

extension ByteBuffer {
    var array: [UInt8] { [UInt8](bytes) }
}
