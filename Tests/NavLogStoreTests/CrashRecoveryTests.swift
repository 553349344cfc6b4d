import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

/// What a crash can leave: the file cut at any byte. Each cut file must open,
/// hold exactly a prefix of the events, and every event acknowledged by a
/// completed `flush()` whose bytes lie before the cut.
@Suite struct CrashRecoveryTests {
    /// A log built with every kind of frame: sealed blocks, checkpoints, an
    /// unfinished frame grown by flushes, and (when closed) footer and trailer.
    /// Returns the events and, for each flush, (file size after it, last seq).
    static func buildLog(at path: String, count: Int, close: Bool) throws -> ([Event], [(Int64, Int)]) {
        let events = sampleEvents(count)
        let writer = try LogWriter(path: path, options: LogWriterOptions(
            durability: .onFlush, blockTargetBytes: 2 << 10, checkpointInterval: 25))
        var acks: [(Int64, Int)] = []
        var rng = SeededGenerator(seed: 99)
        for event in events {
            try writer.append(event)
            if rng.next() % 4 == 0 {
                try writer.flush()
                acks.append((fileSize(path), writer.lastSeq))
            }
        }
        if close {
            try writer.close()
            acks.append((fileSize(path), writer.lastSeq))
        } else {
            try writer.flush()
            acks.append((fileSize(path), writer.lastSeq))
        }
        return (events, acks)
    }

    static func fileSize(_ path: String) -> Int64 {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// Opens a cut copy and checks the prefix property; returns the event count.
    static func checkCut(_ bytes: ArraySlice<UInt8>, at path: String, events: [Event], acks: [(Int64, Int)]) throws -> Int {
        writeFile(path, Array(bytes))
        let reader = try LogReader(path: path)
        let cursor = reader.cursor()
        var got: [Event] = []
        while let event = try cursor.next() { got.append(event) }
        #expect(got.count <= events.count)
        #expect(Array(events.prefix(got.count)) == got, "cut at \(bytes.count): not a prefix")
        let mustHave = acks.filter { $0.0 <= Int64(bytes.count) }.map(\.1).max() ?? 0
        #expect((got.last?.seq ?? 0) >= mustHave, "cut at \(bytes.count): acknowledged seq \(mustHave) lost")
        #expect(reader.eventCount == got.count)
        #expect(reader.lastSeq == got.last?.seq)
        return got.count
    }

    @Test(arguments: [false, true])
    func truncationAtEveryByteOffset(closed: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("full.navlog")
        let (events, acks) = try Self.buildLog(at: path, count: 70, close: closed)
        let bytes = fileBytes(path)
        let cutPath = dir.file("cut.navlog")
        var counts: [Int] = []
        for cut in Array(stride(from: 0, to: bytes.count, by: exhaustiveStride(sampled: 5))) + [bytes.count] {
            counts.append(try Self.checkCut(bytes[0..<cut], at: cutPath, events: events, acks: acks))
        }
        #expect(counts.last == events.count)
        // The count never goes down as the cut moves right.
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func truncationAtRandomOffsetsOfALargeLog() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("full.navlog")
        // 15,000 events: about thirty 64 KiB blocks, three checkpoints, fifteen acknowledged points.
        let events = sampleEvents(15_000)
        var acks: [(Int64, Int)] = []
        let writer = try LogWriter(path: path, options: LogWriterOptions(blockTargetBytes: 64 << 10, checkpointInterval: 4096))
        for (i, event) in events.enumerated() {
            try writer.append(event)
            if i % 1000 == 999 {
                try writer.flush()
                acks.append((Self.fileSize(path), writer.lastSeq))
            }
        }
        try writer.close()
        acks.append((Self.fileSize(path), writer.lastSeq))
        let bytes = fileBytes(path)
        let text = ndjson(events)
        // Line ends: lineEnds[n] is the byte length of the first n lines.
        var lineEnds = [0]
        for (i, b) in text.enumerated() where b == 0x0A { lineEnds.append(i + 1) }
        var rng = SeededGenerator(seed: 7)
        let cutPath = dir.file("cut.navlog")
        // 40 cuts; 10 under a sanitizer, where each read of the events takes a second or more.
        for _ in 0..<(40 / exhaustiveStride(sampled: 4)) {
            let cut = Int(rng.next() % UInt64(bytes.count + 1))
            writeFile(cutPath, Array(bytes[0..<cut]))
            // Compare the bytes handed out with the canonical NDJSON: a
            // prefix of whole lines, holding every acknowledged event.
            let reader = try LogReader(path: cutPath)
            var content: [UInt8] = []
            try reader.forEachContent { content.append(contentsOf: $0) }
            let n = reader.eventCount
            #expect(content.count == lineEnds[n], "cut at \(cut)")
            #expect(content.elementsEqual(text[0..<content.count]), "cut at \(cut): not a prefix")
            let mustHave = acks.filter { $0.0 <= Int64(cut) }.map(\.1).max() ?? 0
            #expect(n >= mustHave, "cut at \(cut): acknowledged seq \(mustHave) lost")
        }
    }

    /// A writer reopening a cut file recovers: the torn bytes go to a side
    /// file, nothing acknowledged is lost, and the log continues.
    @Test func writerRecoversFromEveryCut() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("full.navlog")
        let (events, acks) = try Self.buildLog(at: path, count: 60, close: false)
        let bytes = fileBytes(path)
        var sideFiles = 0
        for cut in stride(from: 0, through: bytes.count, by: 11 * exhaustiveStride(sampled: 3)) {
            let cutDir = try TemporaryDirectory()
            let cutPath = cutDir.file("cut.navlog")
            writeFile(cutPath, Array(bytes[0..<cut]))
            let before = try readEvents(cutPath)
            let writer = try LogWriter(path: cutPath, options: LogWriterOptions(blockTargetBytes: 2 << 10, checkpointInterval: 25))
            #expect(writer.lastSeq == (before.last?.seq ?? 0), "cut at \(cut)")
            if let recovery = writer.recovery, let side = recovery.sideFile {
                // The side file holds exactly the cut bytes.
                #expect(fileBytes(side) == Array(bytes[Int(recovery.cutOffset)..<cut]))
                sideFiles += 1
            }
            for event in events[before.count...] { try writer.append(event) }
            try writer.close()
            #expect(try readEvents(cutPath) == events, "cut at \(cut)")
            let decoded = runForBytes(lz4Tool, ["-dc", cutPath])
            #expect(decoded.status == 0 && decoded.stdout == ndjson(events), "cut at \(cut): lz4 -dc")
            _ = acks
        }
        #expect(sideFiles > 10, "only \(sideFiles) cuts left a torn tail to keep")
    }
}
