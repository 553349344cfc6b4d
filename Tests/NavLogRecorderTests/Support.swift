import Foundation
import NavLogCore
import NavLogStore

/// A fresh temporary directory for one test, removed when the value dies.
final class TemporaryDirectory {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.path + "/navlog-recorder-tests-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}

/// Every event of the log at `path`, read with the real LogReader.
func readEvents(_ path: String) throws -> [Event] {
    let reader = try LogReader(path: path)
    let cursor = reader.cursor()
    var events: [Event] = []
    while let event = try cursor.next() { events.append(event) }
    return events
}

/// The label of a `mark` event.
func label(_ event: Event) -> String? {
    if case .mark(let label) = event.kind { return label }
    return nil
}

/// The build products directory (executables next to the test bundle).
func productsDirectory() -> URL {
    #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    #endif
    if let executable = Bundle.main.executableURL { return executable.deletingLastPathComponent() }
    return URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
}
