import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

/// A writer that hands its preamble's sync to a ``PreambleSyncer`` writes
/// nothing more to the file until that sync is done (the blocks it seals
/// meanwhile wait in memory), and ends up with the same bytes; the
/// syncer's failures reach whoever waits.
@Suite struct PreambleSyncerTests {
    static let t = Timestamp(milliseconds: 1_795_168_800_000)

    static func events(_ session: String, count: Int) -> [Event] {
        (1...count).map { Event(session: session, seq: $0, t: Self.t, kind: .mark(label: "m\($0)")) }
    }

    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? -1
    }

    @Test func nothingPastThePreambleIsWrittenBeforeItsSync() throws {
        let dir = try TemporaryDirectory()
        // Every append seals a block, so it would be written at once.
        let options = LogWriterOptions(maxBlockEvents: 1, syncsDirectoryOnCreate: false, syncsOnClose: false)
        let syncer = PreambleSyncer(directory: dir.path)
        syncer.hold()
        let path = dir.file("held.navlog")
        let writer = try LogWriter(path: path, options: options, preambleSyncer: syncer)
        let preamble = Self.size(path)
        #expect(preamble > 0)

        let appended = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let handed = Handed(writer)
        let appending = Thread {
            do {
                try handed.writer.append(contentsOf: Self.events("held", count: 3))
                appended.signal()
                try handed.writer.close()
            } catch {
                Issue.record("append failed: \(error)")
            }
            finished.signal()
        }
        appending.start()
        // The sealed blocks wait for the preamble's sync in memory, not the
        // writer; closing waits for it.
        #expect(appended.wait(timeout: .now() + 10) == .success)
        #expect(finished.wait(timeout: .now() + 0.2) == .timedOut)
        #expect(Self.size(path) == preamble)

        syncer.release()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        syncer.stop()
        #expect(Self.size(path) > preamble)

        // The same bytes as a writer that syncs its preamble itself.
        let plain = dir.file("plain.navlog")
        let other = try LogWriter(path: plain, options: options)
        try other.append(contentsOf: Self.events("held", count: 3))
        try other.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(contentsOf: URL(fileURLWithPath: plain)))
        #expect(try readEvents(path).map(\.seq) == [1, 2, 3])
    }

    @Test func manyNewLogsAreSyncedInRounds() throws {
        let dir = try TemporaryDirectory()
        let syncer = PreambleSyncer(directory: dir.path)
        let options = LogWriterOptions(syncsDirectoryOnCreate: false, syncsOnClose: false)
        var writers: [LogWriter] = []
        for i in 0..<40 {
            let writer = try LogWriter(path: dir.file("s\(i).navlog"), options: options, preambleSyncer: syncer)
            try writer.append(contentsOf: Self.events("s\(i)", count: 2))
            writers.append(writer)
        }
        for writer in writers { try writer.close() }
        syncer.stop()
        for i in 0..<40 { #expect(try readEvents(dir.file("s\(i).navlog")).map(\.seq) == [1, 2]) }
    }

    @Test func aFailedSyncIsThrownByThatWaitAndEveryLaterOne() throws {
        let dir = try TemporaryDirectory()
        let syncer = PreambleSyncer(directory: dir.path)
        // A file that is not there cannot be synced.
        let missing = syncer.submit(dir.file("missing.navlog"))
        #expect(throws: LogError.self) { try missing.wait() }
        _ = FileManager.default.createFile(atPath: dir.file("there.navlog"), contents: Data([1]))
        let later = syncer.submit(dir.file("there.navlog"))
        #expect(throws: LogError.self) { try later.wait() }
        syncer.stop()
    }
}

/// A writer handed to another thread, which alone uses it from then on.
private struct Handed: @unchecked Sendable {
    let writer: LogWriter
    init(_ writer: LogWriter) { self.writer = writer }
}
