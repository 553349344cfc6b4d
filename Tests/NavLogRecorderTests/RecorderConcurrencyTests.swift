import Foundation
import NavLogCore
import NavLogRecorder
import Testing
import NavLogTestSupport

/// Records `perThread` marks "T/N" from each of `threads` threads at once.
private func recordFromThreads(_ recorder: NavigationRecorder, threads: Int, perThread: Int) {
    let group = DispatchGroup()
    for thread in 0..<threads {
        group.enter()
        Thread {
            for n in 0..<perThread { recorder.marked("\(thread)/\(n)") }
            group.leave()
        }.start()
    }
    group.wait()
}

/// The marks of each thread in log order, by thread.
private func marksByThread(_ events: [Event]) -> [Int: [Int]] {
    var byThread: [Int: [Int]] = [:]
    for event in events {
        guard let label = label(event), label.contains("/") else { continue }
        let parts = label.split(separator: "/")
        byThread[Int(parts[0])!, default: []].append(Int(parts[1])!)
    }
    return byThread
}

@Suite("Recorder concurrency")
struct RecorderConcurrencyTests {
    @Test(arguments: [RecorderOptions(), RecorderOptions(capacity: 16, whenFull: .block)])
    func manyThreadsRecordEveryEventOnceInOrder(options: RecorderOptions) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: path, session: "s-1", options: options)
        let threads = 8, perThread = 2_000
        recordFromThreads(recorder, threads: threads, perThread: perThread)
        try recorder.flush()
        // Durable after flush: read while the recorder is still open.
        let events = try readEvents(path)
        #expect(events.count == 1 + threads * perThread)
        #expect(events.map(\.seq) == Array(1...events.count))
        let byThread = marksByThread(events)
        for thread in 0..<threads {
            #expect(byThread[thread] == Array(0..<perThread), "thread \(thread)")
        }
        #expect(recorder.droppedCount == 0)
        try recorder.close()
    }

    @Test func aFullBufferUnderDropCountsAndRecordsTheDrops() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s.navlog")
        // Sealing every event keeps the writer slow enough for the small buffer to fill.
        let recorder = try NavigationRecorder(
            path: path, session: "s-1",
            options: RecorderOptions(capacity: 4, whenFull: .drop, writer: .init(maxBlockEvents: 1)))
        let threads = 4, perThread = 2_000
        recordFromThreads(recorder, threads: threads, perThread: perThread)
        recorder.marked("last")     // may itself be dropped
        try recorder.close()
        let events = try readEvents(path)
        let dropped = events.filter { $0.type == "recorder.dropped" }.map { event -> Int in
            guard case .number(let n)? = event.extra["count"] else { return 0 }
            return Int(n)!
        }.reduce(0, +)
        let marks = marksByThread(events)
        let kept = marks.values.map(\.count).reduce(0, +)
        #expect(dropped > 0)
        #expect(dropped == recorder.droppedCount)
        let lastKept = events.filter { label($0) == "last" }.count
        #expect(kept + lastKept + dropped == threads * perThread + 1)   // nothing lost silently
        for (_, numbers) in marks { #expect(numbers == numbers.sorted()) }
        #expect(events.map(\.seq) == Array(1...events.count))
    }
}
