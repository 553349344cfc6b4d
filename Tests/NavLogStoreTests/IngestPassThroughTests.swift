import Foundation
import Testing
import NavLogCore
@testable import NavLogStore
import NavLogTestSupport

/// Ingest keeps input lines that are already canonical instead of encoding
/// their events again; the logs it writes must be the very bytes a
/// ``LogWriter`` writes for the same events.
@Suite("Ingest keeps canonical lines")
struct IngestPassThroughTests {
    @Test func logsAreByteForByteThoseOfAPlainWriter() throws {
        let dir = try TemporaryDirectory()
        // Five interleaved sessions; a third of the lines made non-canonical
        // in ways that parse to the same event, and some without their seq.
        let sessions = (1...5).map { sampleEvents(700, session: "s-\($0)", seed: UInt64($0), gaps: $0 == 2) }
        var order: [(session: Int, index: Int)] = []
        var next = Array(repeating: 0, count: sessions.count)
        var rng = SeededGenerator(seed: 9)
        while order.count < sessions.count * 700 {
            let s = Int(rng.next() % UInt64(sessions.count))
            guard next[s] < 700 else { continue }
            order.append((s, next[s]))
            next[s] += 1
        }
        var input: [UInt8] = []
        var kept = 0, variants = 0
        for (s, i) in order {
            var event = sessions[s][i]
            let line = ndjson([event]).dropLast()
            switch rng.next() % 6 {
            case 0:
                input += [0x7B, 0x20] + line.dropFirst()                   // "{ " …
                variants += 1
            case 1 where s != 1:                                          // no seq (s-2 has gaps)
                event.seq = 0
                input += ndjson([event]).dropLast()
                variants += 1
            default:
                input += line
                kept += 1
            }
            input.append(0x0A)
        }
        #expect(kept > 1000 && variants > 500)
        writeFile(dir.file("in.ndjson"), input)

        // Small blocks and checkpoints: many seals, checkpoints, hashes.
        let options = LogWriterOptions(blockTargetBytes: 4096, checkpointInterval: 100)
        for writerThreads in [1, 2] {
            let store = try Store(directory: dir.file("store-\(writerThreads)"), create: true)
            let ingester = StoreIngester(store: store, options: .init(batchEvents: 64, writerOptions: options, writerThreads: writerThreads))
            let report = try ingester.ingest(paths: [dir.file("in.ndjson")], onReject: { Issue.record("rejected: \($0)") })
            #expect(report.stored == order.count)
            #expect(report.sessions == 5 && report.newLogs == 5)
            for events in sessions {
                let reference = dir.file("reference-\(writerThreads)-\(events[0].session).navlog")
                try writeLog(reference, events, options: options)
                let path = try #require(try store.path(forSession: events[0].session))
                #expect(fileBytes(path) == fileBytes(reference), "\(events[0].session)")
                #expect(try LogVerifier.verify(path: path).problems.isEmpty)
            }
        }
    }
}
