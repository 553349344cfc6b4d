import Foundation
import Testing
@testable import NavLogStore
import NavLogTestSupport

@Suite struct HashTests {
    @Test func xxh32PublishedVectors() {
        #expect(XXHash32.hash([UInt8]()) == 0x02CC_5D05)
        #expect(XXHash32.hash([UInt8]("a".utf8)) == 0x550D_7456)
        #expect(XXHash32.hash([UInt8]("abc".utf8)) == 0x32D1_53FF)
        #expect(XXHash32.hash([UInt8]("Nobody inspects the spammish repetition".utf8)) == 0xE229_3B2F)
        #expect(XXHash32.hash([UInt8]("abc".utf8), seed: 1) != XXHash32.hash([UInt8]("abc".utf8)))
    }

    @Test func xxh64PublishedVectors() {
        #expect(XXHash64.hash([UInt8]()) == 0xEF46_DB37_51D8_E999)
        #expect(XXHash64.hash([UInt8]("a".utf8)) == 0xD24E_C4F1_A98C_6E5B)
        #expect(XXHash64.hash([UInt8]("abc".utf8)) == 0x44BC_2CF5_AD77_0999)
        #expect(XXHash64.hash([UInt8]("Nobody inspects the spammish repetition".utf8)) == 0xFBCE_A83C_8A37_8BF1)
    }

    /// The `lz4` tool ends each frame with the XXH32 of its content: our
    /// XXH32 must agree on inputs of every length class (tail, 16-byte stripes).
    @Test(arguments: [0, 1, 3, 4, 15, 16, 17, 31, 32, 33, 100, 1000, 70_000])
    func xxh32AgreesWithLZ4Tool(length: Int) throws {
        var rng = SeededGenerator(seed: UInt64(length) + 7)
        let content = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let frame = runForBytes(lz4Tool, ["-c", "-1"], stdin: Data(content))
        #expect(frame.status == 0)
        let stored = frame.stdout.loadLE32(frame.stdout.count - 4)
        #expect(stored == XXHash32.hash(content))
    }
}
