import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

@Suite struct VerifyRepairTests {
    static let smallOptions = LogWriterOptions(blockTargetBytes: 1 << 10, checkpointInterval: 12)

    @Test func intactLogVerifiesClean() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(3000)
        try writeLog(path, events, options: LogWriterOptions(blockTargetBytes: 16 << 10, checkpointInterval: 500))
        let report = try LogVerifier.verify(path: path)
        #expect(report.problems == [])
        #expect(report.hasFooter)
        #expect(report.events == 3000)
        #expect(report.checkpoints == 6)
        #expect(report.firstSeq == 1 && report.lastSeq == 3000)
    }

    /// Every single-bit flip anywhere in a closed log is reported.
    @Test func everySingleBitFlipIsDetected() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        try writeLog(path, sampleEvents(12), options: LogWriterOptions(blockTargetBytes: 400, checkpointInterval: 4))
        let good = fileBytes(path)
        let clean = try LogVerifier.verify(path: path)
        #expect(clean.problems == [])
        // Every kind of frame is there to be hit.
        #expect(clean.blocks >= 3 && clean.checkpoints >= 2 && clean.hasFooter)
        let flipped = dir.file("flipped.navlog")
        var missed: [Int] = []
        for bit in stride(from: 0, to: good.count * 8, by: exhaustiveStride(sampled: 7)) {
            var bad = good
            bad[bit / 8] ^= UInt8(1 << (bit % 8))
            writeFile(flipped, bad)
            if try LogVerifier.verify(path: flipped).problems.isEmpty { missed.append(bit) }
        }
        #expect(missed == [], "undetected flips at bits \(missed.prefix(20)) of \(good.count * 8)")
    }

    /// One flipped byte is one problem, wherever it lands: what later block
    /// entries, checkpoints and the footer carry over from a lost block (its
    /// index, the running max `t`, the state chain) is not reported again.
    /// Bytes a resync passes over are said beside the bad frame.
    @Test func oneFlipIsOneProblem() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        try writeLog(path, sampleEvents(60), options: LogWriterOptions(blockTargetBytes: 1 << 10, checkpointInterval: 12))
        let good = fileBytes(path)
        let clean = try LogVerifier.verify(path: path)
        #expect(clean.problems == [] && clean.blocks >= 4 && clean.checkpoints >= 3)
        let flipped = dir.file("flipped.navlog")
        var several: [(Int, [String])] = []
        for offset in stride(from: 0, to: good.count, by: 3 * exhaustiveStride(sampled: 5)) {
            var bad = good
            bad[offset] ^= 0x08
            writeFile(flipped, bad)
            let problems = try LogVerifier.verify(path: flipped).problems.filter {
                if case .skipped = $0.kind { false } else { true }
            }
            if problems.count != 1 { several.append((offset, problems.map(\.description))) }
        }
        #expect(several.isEmpty, "\(several.count) flips: \(several.prefix(3))")
    }

    /// Damage in the middle of a large log: the problem names its byte
    /// offset, frame and seq.
    @Test func problemsSayWhere() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        try writeLog(path, sampleEvents(5000), options: LogWriterOptions(blockTargetBytes: 16 << 10))
        let reader = try LogReader(path: path)
        let block = reader.blocks[5]
        var bytes = fileBytes(path)
        let target = Int(block.dataOffset) + block.dataLength / 2
        bytes[target] ^= 0x40
        writeFile(path, bytes)
        let report = try LogVerifier.verify(path: path)
        // One problem: the frame that cannot be read, not also the entries, checkpoints and footer after it.
        #expect(report.problems.count == 1, "\(report.problems)")
        let first = try #require(report.problems.first)
        #expect(first.offset == block.dataOffset)
        #expect(first.frame == block.dataFrameIndex)
        #expect(first.seq == block.firstSeq)
        #expect(first.description.contains("byte \(block.dataOffset), frame \(block.dataFrameIndex), seq \(block.firstSeq)"))
        // A reader that reaches the damaged block reports it as an error, never a crash.
        let cursor = try LogReader(path: path).cursor(fromSeq: block.firstSeq)
        #expect(throws: FileError.self) { _ = try cursor.next() }
    }

    @Test func repairCutsATornTailIntoASideFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(400)
        try writeLog(path, events, options: Self.smallOptions)
        let full = fileBytes(path)
        let reader = try LogReader(path: path)
        let cut = Int(reader.blocks[10].dataOffset) + 9     // inside block 10's data frame
        writeFile(path, Array(full[0..<cut]))
        let torn = try LogVerifier.verify(path: path)
        #expect(!torn.isIntact)
        let repaired = try LogRepair.repair(path: path)
        let recovery = try #require(repaired.recovery)
        #expect(recovery.cutOffset == reader.blocks[10].dataOffset)
        let side = try #require(recovery.sideFile)
        #expect(fileBytes(side) == Array(full[Int(recovery.cutOffset)..<cut]))
        #expect(try LogVerifier.verify(path: path).isIntact)
        #expect(try readEvents(path) == Array(events.prefix(reader.blocks[9].lastSeq)))
        // Repairing again has nothing to do.
        #expect(try LogRepair.repair(path: path).nothingToDo)
    }

    @Test func repairKeepsEverythingAfterMidFileDamage() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(400)
        try writeLog(path, events, options: Self.smallOptions)
        let full = fileBytes(path)
        let reader = try LogReader(path: path)
        let damaged = reader.blocks[7]
        var bytes = full
        bytes[Int(damaged.dataOffset) + 20] ^= 0x01
        writeFile(path, bytes)
        let repaired = try LogRepair.repair(path: path)
        let recovery = try #require(repaired.recovery)
        let side = try #require(recovery.sideFile)
        // Cut at the damaged block; the side file holds every byte from there, named as damage (not a torn tail).
        #expect(recovery.cutOffset == damaged.dataOffset)
        #expect(side == path + ".damaged-\(damaged.dataOffset)")
        #expect(fileBytes(side) == Array(bytes[Int(damaged.dataOffset)...]))
        #expect(try LogVerifier.verify(path: path).isIntact)
        #expect(try readEvents(path) == Array(events.prefix(reader.blocks[6].lastSeq)))
    }

    @Test func repairResealsTheEventsOfAnUnfinishedFrame() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(100)
        let writer = try LogWriter(path: path, options: LogWriterOptions(durability: .everyAppend, blockTargetBytes: 1 << 20))
        for e in events { try writer.append(e) }
        // No close: the file ends with an unfinished data frame.
        let report = try LogVerifier.verify(path: path)
        #expect(report.recoverableTailEvents == 100)
        #expect(try readEvents(path) == events)
        let lz4 = runForBytes(lz4Tool, ["-dc", path])
        #expect(lz4.status != 0)            // the stock tool sees an unfinished stream
        withExtendedLifetime(writer) {}
        writer.file.close()                 // as if the process died: the lock is released
        let repaired = try LogRepair.repair(path: path)
        #expect(repaired.recovery?.recoveredEvents == 100)
        #expect(try LogVerifier.verify(path: path).isIntact)
        #expect(try readEvents(path) == events)
        #expect(runForBytes(lz4Tool, ["-dc", path]).stdout == ndjson(events))
    }

    /// verify's "events recoverable" is what repair keeps of an unfinished
    /// frame: the reader's rule, so none when one of its lines is not a valid
    /// continuation (a line that does not parse, a seq that goes back, a line
    /// of another session, the last LZ4 block ending inside a line).
    @Test(arguments: ["", "not an event\n", "seq back", "other session", "cut inside a line"])
    func verifyCountsWhatRepairKeepsOfAnUnfinishedFrame(damage: String) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(1000)          // past 64 KiB of lines: several LZ4 blocks
        _ = try writeLog(path, Array(events.prefix(10)))
        let closed = fileBytes(path)
        let footer = closed[(closed.count - 12)..<(closed.count - 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
        var tail = events[10..<13].map { Array(ndjson([$0])) }
        switch damage {
        case "seq back": tail.swapAt(1, 2)
        case "other session": tail[1] = ndjson(sampleEvents(12, session: "s-2")[11...])
        case "cut inside a line": tail = events[10...].map { Array(ndjson([$0])) }
        default: tail.insert(Array(damage.utf8), at: 1)
        }
        // The stock tool's frame without its end mark and content checksum: unfinished.
        let frame = runForBytes(lz4Tool, ["-c", "-B4"], stdin: Data(tail.joined())).stdout.dropLast(8)
        var frameBytes = Array(frame)
        if damage == "cut inside a line" {
            // Only the first LZ4 block (64 KiB holds a few lines; it ends inside one) and a few bytes of the next.
            let first = 7 + 4 + Int(frameBytes[7]) | Int(frameBytes[8]) << 8 | Int(frameBytes[9]) << 16
            frameBytes = Array(frameBytes.prefix(first + 10))
        }
        writeFile(path, Array(closed[..<footer]) + frameBytes)
        let read = try LogReader(path: path)
        let report = try LogVerifier.verify(path: path)
        let repaired = try LogRepair.repair(path: path)
        let kept = try #require(repaired.recovery).recoveredEvents
        #expect(report.recoverableTailEvents == kept)
        // A reader hands out what repair keeps.
        #expect(read.damage?.recoveredEvents == kept && read.tailEvents.count == kept)
        #expect(kept == (damage.isEmpty ? 3 : 0))
    }

    @Test func hostileFilesAreErrorsNotCrashes() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("x.navlog")
        // Not a navlog at all.
        writeFile(path, Array("hello, world\n".utf8))
        #expect(throws: FileError.self) { _ = try LogReader(path: path) }
        // A writer refuses it too.
        #expect(throws: FileError.self) { _ = try LogWriter(path: path) }
        #expect(fileBytes(path) == Array("hello, world\n".utf8))
        // A navlog whose next frame is a skippable frame claiming 4 GB.
        try FileManager.default.removeItem(atPath: path)
        try writeLog(path, sampleEvents(10))
        var bytes = Array(fileBytes(path)[0..<NavLogFormat.preambleBytes])
        bytes.appendLE(NavLogFormat.navlogSkippableMagic)
        bytes.appendLE(UInt32.max)
        bytes.append(contentsOf: [UInt8](repeating: 0, count: 100))
        writeFile(path, bytes)
        let reader = try LogReader(path: path)
        #expect(reader.eventCount == 0)
        #expect(reader.damage != nil)
        #expect(!(try LogVerifier.verify(path: path)).isIntact)
        // A data frame whose header claims 4 GB of content and 4 MB blocks.
        bytes = Array(bytes[0..<NavLogFormat.preambleBytes])
        var frame: [UInt8] = []
        frame.appendLE(NavLogFormat.lz4FrameMagic)
        frame.append(0x64 | 0x08)
        frame.append(0x70)
        frame.appendLE(UInt64(4) << 30)
        frame.append(UInt8(truncatingIfNeeded: XXHash32.hash(Array(frame[4...])) >> 8))
        frame.appendLE(UInt32(0x3FFF_FFFF))
        bytes += frame + [UInt8](repeating: 0xAB, count: 1000)
        writeFile(path, bytes)
        let second = try LogReader(path: path)
        #expect(second.eventCount == 0)
        #expect(!(try LogVerifier.verify(path: path)).isIntact)
        // A footer that lies about its entries: the walk is used instead.
        try FileManager.default.removeItem(atPath: path)
        let events = sampleEvents(300)
        try writeLog(path, events, options: Self.smallOptions)
        bytes = fileBytes(path)
        let footerAt = Int(bytes.loadLE64(bytes.count - 12))
        bytes[footerAt + 8 + 8] ^= 0x01                     // block count
        writeFile(path, bytes)
        let third = try LogReader(path: path)
        #expect(third.indexSource == .walk)
        #expect(try readEvents(path) == events)
    }
}
