import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

/// A log whose metadata claims far more than the file holds (a block entry
/// with a valid checksum claiming a billion events and 2 GB of content) is
/// read without trusting the claim: no huge allocation, no crash, and the
/// answer is damage or the events actually there.
@Suite struct ResourceClaimTests {
    @Test(arguments: [false, true])
    func billionEventClaimInABlockEntry(closed: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let events = sampleEvents(40)
        let writer = try LogWriter(path: path, options: LogWriterOptions(blockTargetBytes: 1 << 10, checkpointInterval: 1000))
        for event in events { try writer.append(event) }
        if closed { try writer.close() } else { try writer.flush() }
        let reader = try LogReader(path: path)
        let entry = try #require(reader.blocks.first)
        var original: [UInt8] = []
        entry.appendFrame(to: &original)
        var claim = entry
        claim.eventCount = 1_000_000_000
        claim.contentSize = 2_000_000_000
        claim.lastSeq = entry.firstSeq + 1_000_000_000
        var forged: [UInt8] = []
        claim.appendFrame(to: &forged)
        var bytes = fileBytes(path)
        var patched = 0
        // Every copy of the entry (the frame after its block, and the footer's index).
        var i = 0
        while i + original.count <= bytes.count {
            if bytes[i] == original[0], Array(bytes[i..<(i + original.count)]) == original {
                bytes.replaceSubrange(i..<(i + original.count), with: forged)
                patched += 1
                i += original.count
            } else {
                i += 1
            }
        }
        #expect(patched >= 1)
        writeFile(path, bytes)
        do {
            let forgedReader = try LogReader(path: path)
            let cursor = forgedReader.cursor()
            var got: [Event] = []
            do { while let event = try cursor.next() { got.append(event) } } catch {}
            #expect(got.count <= events.count)
            #expect(Array(events.prefix(got.count)) == got)
            _ = try? forgedReader.finalState()
        } catch {
            // Refused as damage: fine, said in one line.
            #expect(!error.description.contains("\n"))
        }
        #expect(try !LogVerifier.verify(path: path).problems.isEmpty)
    }
}
