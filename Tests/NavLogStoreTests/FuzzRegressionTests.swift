import Foundation
import Testing
import NavLogStore

/// Every input kept under `Tests/FuzzRegressions/<harness>/` goes through the
/// entry point its libFuzzer harness calls: each must return (a crash or a
/// broken invariant stops the test process, failing the run).
@Suite struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FuzzRegressions")

    static func inputs(_ harness: String) throws -> [URL] {
        let dir = root.appendingPathComponent(harness)
        guard FileManager.default.fileExists(atPath: dir.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: dir, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: ["EventLine", "LogReader", "StateRestore", "Import"])
    func everyKeptInputIsHandled(harness: String) throws {
        let files = try Self.inputs(harness)
        for file in files {
            let bytes = try Data(contentsOf: file)
            bytes.withUnsafeBytes { raw in
                switch harness {
                case "EventLine": FuzzEntryPoints.eventLine(raw)
                case "LogReader": FuzzEntryPoints.logFile(raw)
                case "Import": FuzzEntryPoints.importInput(raw)
                default: FuzzEntryPoints.stateRestore(raw)
                }
            }
        }
    }

    @Test func regressionDirectoriesArePresent() throws {
        #expect(try !Self.inputs("EventLine").isEmpty)
    }
}
