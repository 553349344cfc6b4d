import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// What a reader leaves out at the end of a log: a write cut short (an
/// unfinished data frame) is a torn tail; an LZ4 block of it that liblz4
/// refuses is damage — told apart by the case, not by its words.
@Suite struct TornTailTests {
    @Test func anUnfinishedFrameIsATornTailAndABadBlockInItIsNot() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("open.navlog")
        let writer = try LogWriter(path: path, options: LogWriterOptions(blockTargetBytes: 1 << 20))
        for event in sampleEvents(40) { try writer.append(event) }
        try writer.flush()
        let bytes = fileBytes(path)
        try writer.close()

        writeFile(dir.file("torn.navlog"), bytes)
        let torn = try #require(try LogReader(path: dir.file("torn.navlog")).damage)
        #expect(torn.cause == .openFrame(.unfinished))
        #expect(torn.isTornTail)
        #expect(torn.recoveredEvents == 40)

        var damaged = bytes
        damaged[damaged.count - 6] ^= 0x01          // in the last LZ4 block's data, before its checksum
        writeFile(dir.file("damaged.navlog"), damaged)
        let bad = try #require(try LogReader(path: dir.file("damaged.navlog")).damage)
        guard case .openFrame(.lz4(let error)) = bad.cause else {
            Issue.record("expected liblz4's refusal, got \(bad.cause)")
            return
        }
        #expect(error.call == "LZ4F_decompress")
        #expect(!bad.isTornTail)
        #expect(bad.reason == "open frame: \(error)")
    }
}
