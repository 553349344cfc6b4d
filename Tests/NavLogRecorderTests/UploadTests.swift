import Foundation
import NavLogCore
import NavLogRecorder
import NavLogStore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The recorder's uploader against a real `navlog serve` on loopback.
@Suite("Recorder upload")
struct UploadTests {
    /// Upload options for tests: short pauses, no batch by size or time
    /// unless asked (so only flush() sends). The time limits are generous
    /// for sanitizer builds; the waits end as soon as the upload is done.
    static func options(
        _ url: URL, batchEvents: Int = 1_000_000, maxEventsPerRequest: Int = 50
    ) -> RecorderOptions {
        RecorderOptions(syncIntervalMilliseconds: 20,
                        upload: UploadOptions(url: url, batchEvents: batchEvents, intervalMilliseconds: 600_000,
                                              maxEventsPerRequest: maxEventsPerRequest,
                                              retryMinimumMilliseconds: 20, retryMaximumMilliseconds: 200,
                                              requestTimeoutMilliseconds: 30_000))
    }

    /// Records `count` marks.
    static func record(_ recorder: NavigationRecorder, _ count: Int, from start: Int = 0) {
        for i in start..<(start + count) { recorder.record(.mark(label: "m-\(i)")) }
    }

    /// Waits until the collector acknowledged every event recorded so far.
    static func waitForUpload(_ recorder: NavigationRecorder, seconds: Double = 30) throws -> Bool {
        try recorder.flush()
        let last = try LogReader(path: recorder.path).lastSeq ?? 0
        return eventually(seconds: seconds) { (recorder.uploadStatus?.acknowledgedSeq ?? 0) >= last }
    }

    /// `navlog cat` of the log, and of the session in the store.
    static func expectStoreHoldsLog(_ log: String, store: String, session: String) {
        let local = run(navlogPath, ["cat", log])
        let stored = run(navlogPath, ["cat", store, "--session", session])
        #expect(local.status == 0, "\(local.stderr)")
        #expect(stored.status == 0, "\(stored.stderr)")
        #expect(!local.stdout.isEmpty)
        #expect(stored.stdout == local.stdout)
    }

    @Test func recordedEventsArriveInTheStore() throws {
        let dir = try TemporaryDirectory()
        let collector = try Collector(store: dir.file("store"))
        let log = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: log, session: "s-arrive", options: Self.options(collector.url))
        Self.record(recorder, 120)   // more than two requests of 50
        #expect(try Self.waitForUpload(recorder))
        let status = try #require(recorder.uploadStatus)
        #expect(status.stored == 121)
        #expect(status.duplicates == 0)
        #expect(status.requests == 3)
        try recorder.close()
        Self.expectStoreHoldsLog(log, store: collector.store, session: "s-arrive")
    }

    @Test func flushSendsAtOnceAndAFullBatchGoesByItself() throws {
        let dir = try TemporaryDirectory()
        let collector = try Collector(store: dir.file("store"))
        let recorder = try NavigationRecorder(path: dir.file("s.navlog"), session: "s-batch",
                                              options: Self.options(collector.url, batchEvents: 20))
        Self.record(recorder, 3)
        // Four events: under a batch; nothing goes until flush().
        usleep(200_000)
        #expect(recorder.uploadStatus?.requests == 0)
        try recorder.flush()
        #expect(eventually(seconds: 15) { recorder.uploadStatus?.acknowledgedSeq == 4 })
        // Twenty durable events go without flush().
        Self.record(recorder, 20, from: 3)
        #expect(eventually(seconds: 15) { (recorder.uploadStatus?.acknowledgedSeq ?? 0) >= 24 })
        try recorder.close()
    }

    @Test func offlineFirstThenEverythingArrives() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        // A port that was just free: a collector that is stopped at once.
        let first = try Collector(store: store)
        let port = first.port
        first.server.stop(SIGKILL)
        let log = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: log, session: "s-offline",
                                              options: Self.options(URL(string: "http://127.0.0.1:\(port)")!))
        Self.record(recorder, 70)
        try recorder.flush()
        #expect(eventually(seconds: 15) { (recorder.uploadStatus?.retries ?? 0) >= 2 })
        #expect(recorder.uploadStatus?.acknowledgedSeq == 0)
        #expect(recorder.uploadStatus?.problem?.description.hasPrefix(
            "upload to http://127.0.0.1:\(port)/v1/events failed: cannot connect to the collector") == true,
                "\(String(describing: recorder.uploadStatus?.problem))")
        let collector = try Collector(store: store, port: port)
        #expect(try Self.waitForUpload(recorder))
        #expect(recorder.uploadStatus?.problem == nil)
        try recorder.close()
        Self.expectStoreHoldsLog(log, store: collector.store, session: "s-offline")
    }

    @Test func aServerKilledAndRestartedWhileRecordingGetsEverythingOnce() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        var collector = try Collector(store: store)
        let port = collector.port
        let log = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: log, session: "s-kill",
                                              options: Self.options(collector.url, batchEvents: 5))
        for round in 0..<3 {
            Self.record(recorder, 40, from: round * 100)
            usleep(30_000)   // requests under way
            collector.server.stop(SIGKILL)
            Self.record(recorder, 40, from: round * 100 + 50)
            try recorder.flush()
            collector = try Collector(store: store, port: port)
        }
        #expect(try Self.waitForUpload(recorder))
        try recorder.close()
        Self.expectStoreHoldsLog(log, store: store, session: "s-kill")
    }

    @Test func aRestartedRecorderResumesAfterTheAcknowledgedSeq() throws {
        let dir = try TemporaryDirectory()
        let collector = try Collector(store: dir.file("store"))
        let log = dir.file("s.navlog")
        let first = try NavigationRecorder(path: log, session: "s-resume", options: Self.options(collector.url))
        Self.record(first, 30)
        #expect(try Self.waitForUpload(first))
        try first.close()
        #expect(FileManager.default.fileExists(atPath: log + ".upload"))

        let second = try NavigationRecorder(path: log, session: "s-resume", options: Self.options(collector.url))
        #expect(second.uploadStatus?.acknowledgedSeq == 31)
        Self.record(second, 10, from: 30)
        #expect(try Self.waitForUpload(second), "\(String(describing: second.uploadStatus))")
        let status = try #require(second.uploadStatus)
        #expect(status.stored == 11)       // its session.start and ten marks: nothing sent again
        #expect(status.duplicates == 0)
        #expect(status.requests == 1)
        try second.close()
        Self.expectStoreHoldsLog(log, store: collector.store, session: "s-resume")
    }

    /// A wrong key: 401, retried, nothing stored; the events wait in the
    /// log, and a recorder with the right key ships them.
    @Test func aWrongKeyStoresNothingAndTheEventsWait() throws {
        let dir = try TemporaryDirectory()
        let keys = try dir.file("keys", "write w-right\n")
        let collector = try Collector(store: dir.file("store"), extra: ["--keys", keys])
        let log = dir.file("s.navlog")
        var options = Self.options(collector.url)
        options.upload?.key = "w-wrong"
        let wrong = try NavigationRecorder(path: log, session: "s-key", options: options)
        Self.record(wrong, 5)
        try wrong.flush()
        #expect(eventually(seconds: 15) { (wrong.uploadStatus?.retries ?? 0) >= 2 })
        let status = try #require(wrong.uploadStatus)
        #expect(status.acknowledgedSeq == 0)
        #expect(status.stored == 0)
        guard case .status(_, 401, _)? = status.problem else {
            Issue.record("not a 401: \(String(describing: status.problem))")
            return
        }
        try wrong.close()

        options.upload?.key = "w-right"
        let right = try NavigationRecorder(path: log, session: "s-key", options: options)
        #expect(try Self.waitForUpload(right))
        #expect(right.uploadStatus?.stored == 7)
        try right.close()
        Self.expectStoreHoldsLog(log, store: collector.store, session: "s-key")
    }

    /// More events in a request than the collector takes (5,000): 413, and
    /// the batch halves until it goes.
    @Test func aTooLargeBatchIsHalved() throws {
        let dir = try TemporaryDirectory()
        let collector = try Collector(store: dir.file("store"))
        let log = dir.file("s.navlog")
        let recorder = try NavigationRecorder(path: log, session: "s-413",
                                              options: Self.options(collector.url, maxEventsPerRequest: 6_000))
        Self.record(recorder, 5_999)
        #expect(try Self.waitForUpload(recorder, seconds: 60))
        let status = try #require(recorder.uploadStatus)
        #expect(status.tooLarge == 1)
        #expect(status.requests == 3)      // 6,000 refused, then 3,000 and 3,000
        #expect(status.stored == 6_000)
        try recorder.close()
        Self.expectStoreHoldsLog(log, store: collector.store, session: "s-413")
    }
}
