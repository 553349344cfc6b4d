import Foundation
import NavLogCore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("Recorder crash")
struct RecorderCrashTests {
    /// A child records, flushes, says which seq was acknowledged, goes on
    /// recording and is SIGKILLed: every acknowledged event is in the log.
    @Test(arguments: [1, 5_000])
    func everyFlushedEventSurvivesAKill(count: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let process = Process()
        process.executableURL = productsDirectory().appendingPathComponent("navlog-recorder-probe")
        process.arguments = [path, "s-probe", String(count)]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // Read the acknowledgement line.
        var line: [UInt8] = []
        let handle = out.fileHandleForReading
        while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        usleep(20_000)   // let it record unflushed events too
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text == "flushed \(count + 1)")
        let acknowledged = Int(text.split(separator: " ").last ?? "") ?? 0

        let events = try readEvents(path)
        #expect(events.count >= acknowledged)
        #expect(events.prefix(acknowledged).map(\.seq) == Array(1...acknowledged))
        #expect(events.first?.type == "session.start")
        #expect(events.dropFirst().prefix(count).map { label($0) } == (0..<count).map { "flushed-\($0)" })
    }
}
