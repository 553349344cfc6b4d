#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import NavLogStore
import NavLogTestSupport

/// Listing a store reads `readdir` entries, which are only as long as their
/// names: a listing must read each name where it lies. With enough entries
/// to fill `readdir`'s buffer, reading a whole `d_name` array past the last
/// one is a heap-buffer-overflow that AddressSanitizer reports (the test
/// suite's ASan pass runs this).
@Suite("Directory listing")
struct DirectoryListingTests {
    @Test func aStoreOfThousandsOfLogsIsListedExactly() throws {
        let dir = try TemporaryDirectory()
        var expected: [String] = []
        // Names of every length from 8 to 72 bytes, enough to fill several buffers.
        for k in 0..<3_000 {
            let name = "s-\(k)-" + String(repeating: "x", count: k % 65) + ".navlog"
            #expect(close(open(dir.file(name), O_CREAT | O_WRONLY, 0o644)) == 0)
            expected.append(dir.path + "/" + name)
        }
        for other in ["notes.txt", ".hidden.navlog", "s-1.navlog.torn-55"] {
            #expect(close(open(dir.file(other), O_CREAT | O_WRONLY, 0o644)) == 0)
        }
        let listed = try VersionOneStore(directory: dir.path).logPaths()
        #expect(listed == expected.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        let names = try DirectoryListing.names(in: dir.path)
        #expect(names.count == 3_003)
        #expect(!names.contains(".") && !names.contains(".."))
    }
}
