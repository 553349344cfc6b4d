import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

/// A flag shared between the writing thread and the test.
private final class Flag: Sendable {
    private let state = Locked((isSet: false, failure: String?.none))
    func set() { state.withLock { $0.isSet = true } }
    var isSet: Bool { state.withLock { $0.isSet } }
    func fail(_ message: String) { state.withLock { $0 = (true, message) } }
    var failed: String? { state.withLock { $0.failure } }
}

@Suite struct FollowTests {
    /// A reader following a file that another thread is writing (sealed
    /// blocks, unfinished frames grown by flushes, checkpoints, then the
    /// footer) only ever sees a prefix of the events, and in the end all.
    @Test(arguments: [LogWriterOptions.Durability.everyAppend, .onFlush])
    func readerFollowingAGrowingFileSeesAPrefix(durability: LogWriterOptions.Durability) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(4000)
        let done = Flag()
        // The file exists (with its preamble) before the reader opens it.
        let writer = try LogWriter(path: path, options: LogWriterOptions(durability: durability, blockTargetBytes: 4 << 10,
                                                                         checkpointInterval: 300))
        let box = WriterBox(writer)
        let thread = Thread {
            do {
                let writer = box.writer
                var rng = SeededGenerator(seed: 5)
                for event in events {
                    try writer.append(event)
                    if rng.next() % 16 == 0 { try writer.flush() }
                    if rng.next() % 64 == 0 { usleep(200) }
                }
                try writer.close()
                done.set()
            } catch {
                done.fail("writer: \(error)")
            }
        }
        thread.start()
        let reader = try LogReader(path: path)
        let cursor = reader.cursor()
        var seen = 0
        var rounds = 0
        while true {
            let finished = done.isSet
            try reader.refresh()
            while let event = try cursor.next() {
                #expect(event == events[seen], "event \(seen) differs")
                if event != events[seen] { return }
                seen += 1
            }
            // What the reader holds is a prefix: its count matches what it handed out.
            #expect(reader.eventCount >= seen)
            rounds += 1
            if finished { break }
            usleep(100)
        }
        #expect(done.failed == nil)
        #expect(seen == events.count)
        #expect(rounds > 3)
    }
}

private final class WriterBox: @unchecked Sendable {
    let writer: LogWriter
    init(_ writer: LogWriter) { self.writer = writer }
}

/// A follower that refreshed while a checkpoint was half written must pick
/// the checkpoint up once it is whole, and go on past it (it once stopped
/// there for good: the resumed walk forgot that a block came just before).
@Test func followerResumesAcrossAHalfWrittenCheckpoint() throws {
    let dir = try TemporaryDirectory()
    let whole = dir.file("whole.navlog")
    let events = sampleEvents(900)
    _ = try writeLog(whole, events, options: LogWriterOptions(blockTargetBytes: 4 << 10, checkpointInterval: 300))
    let bytes = fileBytes(whole)
    let checkpoint = try #require(try LogReader(path: whole).checkpoints.first)
    for cut in [checkpoint.offset + 3, checkpoint.offset + 12, checkpoint.offset + Int64(checkpoint.frameLength) - 1] {
        let growing = dir.file("growing-\(cut).navlog")
        writeFile(growing, Array(bytes[..<Int(cut)]))
        let reader = try LogReader(path: growing)
        let cursor = reader.cursor()
        var seen: [Event] = []
        while let event = try cursor.next() { seen.append(event) }
        let prefix = seen == Array(events.prefix(checkpoint.seq))
        #expect(prefix, "cut at \(cut): \(seen.count) events before the file grew")
        // The rest of the file arrives, appended to the same file.
        let handle = try #require(FileHandle(forWritingAtPath: growing))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes[Int(cut)...]))
        try handle.close()
        try reader.refresh()
        while let event = try cursor.next() { seen.append(event) }
        let all = seen == events
        #expect(all, "cut at \(cut): \(seen.count) of \(events.count) after the file grew")
        #expect(reader.checkpoints.count == (try LogReader(path: whole).checkpoints.count))
    }
}
