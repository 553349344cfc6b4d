import Foundation
import Testing
import NavLogFuzzEntry

/// Every input kept under `Tests/FuzzRegressions/<harness>/` goes through the
/// entry point its libFuzzer harness calls: each must return (a crash or a
/// broken invariant stops the test process, failing the run).
///
/// The harnesses are the `Fuzz/<harness>Fuzz.swift` files, read from the
/// folder: a harness added there without a kept input, or without its entry
/// point in ``entryPoints``, fails here.
@Suite struct FuzzRegressionTests {
    static let testsFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
    static let root = testsFolder.appendingPathComponent("FuzzRegressions")
    static let fuzzFolder = testsFolder.deletingLastPathComponent().appendingPathComponent("Fuzz")

    /// A kept-input folder or the harness folder that is not there.
    struct MissingFolder: Error, CustomStringConvertible {
        var path: String
        var description: String { "no folder \(path) (see Tests/FuzzRegressions/README.md)" }
    }

    /// Each harness's entry point: the `FuzzEntryPoints` function its file calls.
    static let entryPoints: [String: (name: String, call: @Sendable (UnsafeRawBufferPointer) -> Void)] = [
        "EventLine": ("eventLine", FuzzEntryPoints.eventLine),
        "EventLineKey": ("eventLineKey", FuzzEntryPoints.eventLineKey),
        "LogReader": ("logFile", FuzzEntryPoints.logFile),
        "StateRestore": ("stateRestore", FuzzEntryPoints.stateRestore),
        "Import": ("importInput", FuzzEntryPoints.importInput),
    ]

    /// The harnesses in `Fuzz/`: `NAME` of every `NAMEFuzz.swift`.
    static func harnesses() throws -> [String] {
        try files(in: fuzzFolder).map(\.lastPathComponent)
            .filter { $0.hasSuffix("Fuzz.swift") }
            .map { String($0.dropLast("Fuzz.swift".count)) }
    }

    /// The inputs kept for `harness`; throws when its folder is missing.
    static func inputs(_ harness: String) throws -> [URL] {
        try files(in: root.appendingPathComponent(harness))
    }

    static func isFolder(_ url: URL) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) && isFolder.boolValue
    }

    /// The entries of a folder, sorted by name; throws when it is missing.
    static func files(in folder: URL) throws -> [URL] {
        guard isFolder(folder) else { throw MissingFolder(path: folder.path) }
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: try harnesses())
    func everyKeptInputIsHandled(harness: String) throws {
        let entry = try #require(Self.entryPoints[harness], "Fuzz/\(harness)Fuzz.swift has no entry point in FuzzRegressionTests.entryPoints")
        let files = try Self.inputs(harness)
        #expect(!files.isEmpty, "Tests/FuzzRegressions/\(harness)/ keeps no input")
        for file in files {
            let bytes = try Data(contentsOf: file)
            bytes.withUnsafeBytes { entry.call($0) }
        }
    }

    /// The list above is the list of `Fuzz/`, and each harness calls the entry point listed for it.
    @Test func everyHarnessIsListedWithItsEntryPoint() throws {
        let harnesses = try Self.harnesses()
        #expect(harnesses.count >= 4, "harnesses found in \(Self.fuzzFolder.path): \(harnesses)")
        #expect(Set(harnesses) == Set(Self.entryPoints.keys))
        for harness in harnesses {
            let source = try String(contentsOf: Self.fuzzFolder.appendingPathComponent("\(harness)Fuzz.swift"), encoding: .utf8)
            let name = try #require(Self.entryPoints[harness]?.name)
            #expect(source.contains("FuzzEntryPoints.\(name)("), "Fuzz/\(harness)Fuzz.swift does not call FuzzEntryPoints.\(name)")
        }
    }

    /// No kept folder is orphaned (a misspelt or removed harness): every folder is a harness's.
    @Test func everyKeptFolderBelongsToAHarness() throws {
        let harnesses = Set(try Self.harnesses())
        let folders = try Self.files(in: Self.root).filter(Self.isFolder).map(\.lastPathComponent)
        #expect(!folders.isEmpty)
        for folder in folders {
            #expect(harnesses.contains(folder), "Tests/FuzzRegressions/\(folder)/ is no harness's (Fuzz/\(folder)Fuzz.swift)")
        }
    }

    /// A missing folder is an error, not an empty list.
    @Test func aMissingFolderThrows() {
        #expect(throws: MissingFolder.self) { try Self.inputs("NoSuchHarness") }
    }
}
