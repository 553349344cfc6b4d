import Foundation
import Testing

/// The README's promise for a newcomer: in every folder under `Sources/`,
/// the first Swift file (in name order) begins with a line saying what
/// lives there, `// Folder/: …`, naming the folder by the end of its path.
@Suite("Folder headers")
struct FolderHeaderTests {
    static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test func everyFoldersFirstFileSaysWhatLivesThere() throws {
        let manager = FileManager.default
        var folders = 0
        var missing: [String] = []
        let walk = try #require(manager.enumerator(atPath: Self.sources.path))
        for case let path as String in walk {
            var isFolder: ObjCBool = false
            let full = Self.sources.appendingPathComponent(path).path
            guard manager.fileExists(atPath: full, isDirectory: &isFolder), isFolder.boolValue else { continue }
            let files = try manager.contentsOfDirectory(atPath: full).filter { $0.hasSuffix(".swift") }
                .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            guard let first = files.first else { continue }
            folders += 1
            let text = try String(contentsOfFile: full + "/" + first, encoding: .utf8)
            let line = text.prefix { $0 != "\n" }
            guard line.hasPrefix("// "), let colon = line.range(of: "/: ") else {
                missing.append("\(path)/\(first)")
                continue
            }
            let named = line[line.index(line.startIndex, offsetBy: 3)..<colon.lowerBound]
            if !("/" + path).hasSuffix("/" + named) { missing.append("\(path)/\(first) names \(named)") }
        }
        #expect(folders > 40, "only \(folders) folders with Swift files under \(Self.sources.path)")
        #expect(missing.isEmpty, "first files without a header: \(missing)")
    }
}
