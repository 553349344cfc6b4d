import Foundation
import NavLogStore
import Testing
import NavLogTestSupport

@Suite("Gzip and whole files")
struct GzipAndWholeFileTests {
    /// What `Gzip.compress` makes, the system's `gzip -dc` reads back whole.
    @Test(arguments: [0, 1, 100_000])
    func gzipInMemoryIsReadByGzip(size: Int) throws {
        var generator = SeededGenerator(seed: UInt64(size))
        let bytes = (0..<size).map { _ in UInt8.random(in: 0x20...0x7A, using: &generator) }
        let compressed = try Gzip.compress(bytes)
        #expect(compressed.prefix(2) == [0x1F, 0x8B])
        let dir = try TemporaryDirectory()
        let path = dir.file("x.gz")
        try Data(compressed).write(to: URL(fileURLWithPath: path))
        let r = runForBytes("/usr/bin/env", ["gzip", "-dc", path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout == bytes)
    }

    @Test func aWholeFileIsReplacedAndReadBack() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("side")
        #expect(try WholeFile.read(path) == nil)
        try WholeFile.replace(path, with: Array("first\n".utf8))
        try WholeFile.replace(path, with: Array("second\n".utf8))
        #expect(try WholeFile.read(path) == Array("second\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
        #expect(throws: FileError.self) { try WholeFile.replace(dir.file("no/such/dir/side"), with: [1]) }
    }
}
