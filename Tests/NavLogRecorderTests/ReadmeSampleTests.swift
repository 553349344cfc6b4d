import Foundation
import NavLogCore
import Testing
import NavLogTestSupport

/// The repository's root (this file is `Tests/NavLogRecorderTests/ReadmeSampleTests.swift`).
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("Recorder README sample")
struct ReadmeSampleTests {
    @Test func theReadmeBlockIsTheCompiledSample() throws {
        let sample = try String(contentsOf: repositoryRoot.appendingPathComponent("Tests/NavLogRecorderTests/ReadmeSample.swift"),
                                encoding: .utf8)
        let readme = try String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let region = try #require(between(sample, "// README-SAMPLE-BEGIN\n", "// README-SAMPLE-END\n"))
        let section = try #require(readme.range(of: "\n## Record from your app\n"))
        let block = try #require(between(String(readme[section.upperBound...]), "```swift\n", "```\n"))
        #expect(block == region)
        #expect(region.contains("NavigationRecorder("))
    }

    @Test func theSampleRuns() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        try recordASession(logPath: path)
        let events = try readEvents(path)
        #expect(events.map(\.type) == [
            "session.start", "tabs.define", "tab.select", "stack.push", "stack.push", "stack.popToRoot",
            "modal.present", "modal.dismiss", "url.open", "tab.select", "stack.push", "mark",
        ])
        #expect(events[9].cause == 9 && events[10].cause == 9)
    }
}

/// The text between the first `start` and the next `end` after it.
private func between(_ text: String, _ start: String, _ end: String) -> String? {
    guard let open = text.range(of: start), let close = text.range(of: end, range: open.upperBound..<text.endIndex) else {
        return nil
    }
    return String(text[open.upperBound..<close.lowerBound])
}
