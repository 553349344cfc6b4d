import Foundation
import Testing
import NavLogCore
@testable import NavLogStore
import NavLogTestSupport

/// Ingest deals each session's lines to one thread; whatever the number of
/// threads, and however few logs may be open, it must store the same events
/// with the same seqs and report the same rejections in input order as a
/// one-thread ingest.
@Suite("Ingest threads")
struct IngestThreadsTests {
    /// Interleaved sessions with every kind of trouble mixed in: lines the
    /// reading thread cannot skim (escaped keys, non-string sessions, not
    /// JSON), lines that skim but do not parse, seq regressions, blank and
    /// over-long lines, a session id that differs only in Unicode form.
    static func troubledInput() -> (bytes: [UInt8], lines: Int) {
        var rng = SeededGenerator(seed: 17)
        let sessions = (1...12).map { sampleEvents(300, session: "s-\($0)", seed: UInt64($0), gaps: $0 % 3 == 0) }
        var next = Array(repeating: 0, count: sessions.count)
        var out: [UInt8] = []
        var lines = 0
        let t = #""t":"2026-11-20T10:00:00.000Z""#
        let troubles = [
            #"{"label":"x","sess\u0069on":"s-1",\#(t),"type":"mark"}"#,           // not skimmable, parses: stored
            #"{"session":7,\#(t),"type":"mark","label":"x"}"#,                     // not skimmable, rejected
            "not json at all",
            #"{"seq":"one","session":"s-2",\#(t),"type":"mark","label":"x"}"#,    // skims, rejected by its thread
            #"{"seq":1,"session":"s-3",\#(t),"type":"mark","label":"again"}"#,    // seq regression
            #"{"meta":{"session":"s-4"},"session":"s-5",\#(t),"type":"mark","label":"m"}"#,
            #"{"session":"e\#u{301}",\#(t),"type":"mark","label":"decomposed"}"#,
            #"{"session":"\#u{E9}",\#(t),"type":"mark","label":"precomposed"}"#,
            #"{"session":"s-6",\#(t),"type":"mark","label":"dup","label":"dup"}"#,
            "   ",
            "",
        ]
        while next.contains(where: { $0 < 300 }) {
            let s = Int(rng.next() % UInt64(sessions.count))
            guard next[s] < 300 else { continue }
            if rng.next() % 25 == 0 {
                out += Array(troubles[Int(rng.next() % UInt64(troubles.count))].utf8)
            } else if rng.next() % 400 == 0 {
                out += Array(#"{"label":""#.utf8) + Array(repeating: UInt8(ascii: "x"), count: EventParser.maxLineBytes) + Array(#""}"#.utf8)
            } else {
                var event = sessions[s][next[s]]
                if rng.next() % 4 == 0 { event.seq = 0 }
                out += ndjson([event]).dropLast()
                next[s] += 1
            }
            out.append(0x0A)
            lines += 1
        }
        return (out, lines)
    }

    @Test func anyNumberOfThreadsStoresAndRejectsExactlyAsOne() throws {
        let dir = try TemporaryDirectory()
        let (input, lines) = Self.troubledInput()
        writeFile(dir.file("in.ndjson"), input)
        let options = LogWriterOptions(blockTargetBytes: 4096, checkpointInterval: 64)
        // By their session's bytes (file names may differ when ids collide):
        // each log's bytes, and its events as canonical NDJSON.
        typealias Result = (report: StoreIngester.Report, rejections: [String], bytes: [[UInt8]: [UInt8]], events: [[UInt8]: [UInt8]])
        var results: [Result] = []
        // With logs closed and reopened (few open at once) the events are
        // the same but the files are laid out differently (a closed log has
        // a footer that the reopened one continues past).
        for (threads, maxOpen) in [(1, 128), (2, 128), (3, 128), (2, 1), (3, 4)] {
            let store = try Store(directory: dir.file("store-\(threads)-\(maxOpen)"), create: true)
            let ingester = StoreIngester(store: store, options: .init(maxOpenWriters: maxOpen, writerOptions: options,
                                                                     writerThreads: threads))
            var rejections: [String] = []
            let report = try ingester.ingest(paths: [dir.file("in.ndjson")], onReject: { rejections.append("\($0.line): \($0.reason)") })
            var bytes: [[UInt8]: [UInt8]] = [:], events: [[UInt8]: [UInt8]] = [:]
            for entry in try store.entries() {
                let session = Array(try #require(entry.session).utf8)
                bytes[session] = fileBytes(entry.path)
                events[session] = ndjson(try readEvents(entry.path))
                #expect(try LogVerifier.verify(path: entry.path).problems.isEmpty)
            }
            results.append((report, rejections, bytes, events))
        }
        let one = results[0]
        #expect(one.report.lines == lines)
        #expect(one.report.stored + one.report.rejected + one.report.blankLines == lines)
        #expect(one.report.rejected > 20 && one.report.sessions == 14 && one.events.count == 14)
        #expect(one.rejections.contains { $0.contains("internal error") } == false)
        let lineNumbers = one.rejections.map { Int($0.prefix { $0 != ":" })! }
        #expect(lineNumbers == lineNumbers.sorted(), "rejections are reported in input order")
        for other in results.dropFirst() {
            #expect(other.report.lines == one.report.lines && other.report.stored == one.report.stored)
            #expect(other.report.rejected == one.report.rejected && other.report.blankLines == one.report.blankLines)
            #expect(other.report.sessions == one.report.sessions && other.report.newLogs == one.report.newLogs)
            #expect(other.rejections == one.rejections)
            #expect(other.events.keys.sorted { $0.lexicographicallyPrecedes($1) } == one.events.keys.sorted { $0.lexicographicallyPrecedes($1) })
            for (session, events) in one.events {
                #expect(other.events[session] == events, "events of \(String(decoding: session, as: UTF8.self)) differ")
            }
        }
        for other in results[1..<3] {
            for (session, bytes) in one.bytes {
                #expect(other.bytes[session] == bytes, "log of \(String(decoding: session, as: UTF8.self)) differs")
            }
        }
    }
}

/// `session.end` ends nothing in the store: events after it go on in the
/// same log, however the sessions are dealt out and however few logs may be
/// open at once (then some are closed and reopened, continuing).
@Suite("Ingest threads: ended sessions")
struct IngestEndedSessionsTests {
    @Test func aSessionThatGoesOnAfterItsEndContinuesItsLog() throws {
        let dir = try TemporaryDirectory()
        var rng = SeededGenerator(seed: 23)
        // s-1 ends halfway and goes on; s-2 ends twice; s-3 ends last; s-4 never ends.
        var sessions = (1...4).map { sampleEvents(400, session: "s-\($0)", seed: UInt64($0), gaps: false) }
        for (s, ends) in [(0, [199]), (1, [99, 299]), (2, [399])] {
            for i in ends { sessions[s][i].kind = .sessionEnd }
        }
        var next = Array(repeating: 0, count: sessions.count)
        var input: [UInt8] = []
        while next.contains(where: { $0 < 400 }) {
            let s = Int(rng.next() % UInt64(sessions.count))
            guard next[s] < 400 else { continue }
            input += ndjson([sessions[s][next[s]]])
            next[s] += 1
        }
        writeFile(dir.file("in.ndjson"), input)
        let options = LogWriterOptions(blockTargetBytes: 4096, checkpointInterval: 64)
        for (threads, maxOpen) in [(1, 128), (2, 128), (2, 1)] {
            let store = try Store(directory: dir.file("store-\(threads)-\(maxOpen)"), create: true)
            let ingester = StoreIngester(store: store, options: .init(maxOpenWriters: maxOpen, writerOptions: options,
                                                                     writerThreads: threads))
            let report = try ingester.ingest(paths: [dir.file("in.ndjson")], onReject: { Issue.record("rejected: \($0)") })
            #expect(report.stored == 1600 && report.sessions == 4 && report.newLogs == 4)
            for events in sessions {
                let path = try #require(try store.path(forSession: events[0].session))
                #expect(try readEvents(path) == events, "\(events[0].session)")
                #expect(try LogVerifier.verify(path: path).problems.isEmpty)
                // Every log was closed at the end, its lock released.
                try LogWriter(path: path, options: options).close()
            }
            // Each log open from start to end: the very bytes of a plain writer's log.
            for events in sessions where maxOpen > 1 {
                let reference = dir.file("reference-\(threads)-\(events[0].session).navlog")
                try writeLog(reference, events, options: options)
                #expect(try fileBytes(#require(try store.path(forSession: events[0].session))) == fileBytes(reference))
            }
        }
    }
}

/// A log whose session ended stays open until a log opened after it needs
/// buffers; it is then closed (its block sealed, short) and hands its
/// buffers on, and reopened, continuing, if its session goes on.
@Suite("Ingest threads: logs of ended sessions")
struct IngestEndedLogsTests {
    @Test func anEndedSessionsLogIsClosedForTheNextAndReopenedIfItGoesOn() throws {
        let dir = try TemporaryDirectory()
        // s-1 ends at its 200th event; s-2 starts after that, then both go
        // on, interleaved; s-3 starts before s-1 ends and never ends.
        var first = sampleEvents(400, session: "s-1", seed: 1, gaps: false)
        first[199].kind = .sessionEnd
        let second = sampleEvents(400, session: "s-2", seed: 2, gaps: false)
        let third = sampleEvents(400, session: "s-3", seed: 3, gaps: false)
        var input: [UInt8] = []
        for i in 0..<200 { input += ndjson([first[i], third[i]]) }
        for i in 0..<200 { input += ndjson([second[i], first[200 + i], third[200 + i]]) }
        input += ndjson(Array(second[200...]))
        writeFile(dir.file("in.ndjson"), input)
        // Blocks larger than any of these logs: a log open throughout has one.
        let options = LogWriterOptions(blockTargetBytes: 1 << 20, checkpointInterval: 1 << 20)
        for threads in [1, 2] {
            let store = try Store(directory: dir.file("store-\(threads)"), create: true)
            let ingester = StoreIngester(store: store, options: .init(writerOptions: options, writerThreads: threads))
            let report = try ingester.ingest(paths: [dir.file("in.ndjson")], onReject: { Issue.record("rejected: \($0)") })
            #expect(report.stored == 1200 && report.sessions == 3 && report.newLogs == 3)
            for events in [first, second, third] {
                let path = try #require(try store.path(forSession: events[0].session))
                #expect(try readEvents(path) == events, "\(events[0].session)")
                #expect(try LogVerifier.verify(path: path).problems.isEmpty)
            }
            let blocks = { (session: String) throws -> Int in
                try LogReader(path: #require(try store.path(forSession: session))).blocks.count
            }
            #expect(try blocks("s-2") == 1 && blocks("s-3") == 1)
            if threads == 1 {
                // s-2's log took s-1's buffers: s-1's log was closed at its
                // end, its block sealed there, then reopened.
                #expect(try blocks("s-1") == 2)
            }
        }
    }
}

/// A thread that cannot open its session's log stops the ingest with that
/// error, without hanging the others; what was stored stays stored.
@Suite("Ingest threads: a failing log")
struct IngestFailureTests {
    @Test(.timeLimit(.minutes(1)), arguments: [1, 2, 3])
    func anUnreadableLogStopsTheIngestWithItsError(threads: Int) throws {
        let dir = try TemporaryDirectory()
        let store = try Store(directory: dir.file("store"), create: true)
        let bad = store.directory + "/" + Store.fileName(forSession: "s-2", attempt: 0)
        writeFile(bad, Array("this is not a navlog file, and longer than a preamble of fifty-five bytes".utf8))
        var input: [UInt8] = []
        let sessions = (1...3).map { sampleEvents(4000, session: "s-\($0)", seed: UInt64($0)) }
        for i in 0..<4000 { for events in sessions { input += ndjson([events[i]]) } }
        writeFile(dir.file("in.ndjson"), input)
        let ingester = StoreIngester(store: store, options: .init(writerThreads: threads))
        var failure: LogError?
        do {
            _ = try ingester.ingest(paths: [dir.file("in.ndjson")], onReject: { Issue.record("rejected: \($0)") })
        } catch {
            failure = error
        }
        let error = try #require(failure)
        #expect(error.path == bad, "\(error)")
        #expect(fileBytes(bad) == Array("this is not a navlog file, and longer than a preamble of fifty-five bytes".utf8))
        for session in ["s-1", "s-3"] {
            if let path = try store.path(forSession: session) {
                #expect(try LogVerifier.verify(path: path).problems.isEmpty)
            }
        }
    }
}

/// A log that another writer appended to while the ingest had it closed (to
/// keep few logs open): its seq goes on from the log, not from the ingest's
/// memory of it (contract §5: an absent seq is the previous accepted + 1).
@Suite("Ingest threads: logs that went on without them")
struct IngestReopenTests {
    @Test func anAbsentSeqContinuesFromWhatTheLogHolds() throws {
        let dir = try TemporaryDirectory()
        func mark(_ session: String, _ label: String, seq: Int? = nil) -> String {
            let seqField = seq.map { #""seq":\#($0),"# } ?? ""
            return #"{\#(seqField)"session":"\#(session)","t":"2026-11-20T10:00:00Z","type":"mark","label":"\#(label)"}"#
        }
        var lines = (1...100).map { mark("x", "A\($0)") }
        lines += (1...20_000).map { mark("y", "B\($0)") }
        lines += (1...3).map { mark("x", "late\($0)") }
        lines.append(mark("x", "explicit", seq: 101))   // now taken: refused
        writeFile(dir.file("in.ndjson"), Array((lines.joined(separator: "\n") + "\n").utf8))
        let store = try Store(directory: dir.file("store"), create: true)
        // One thread, one open log: x's log is closed once y's lines come.
        let ingester = StoreIngester(store: store, options: StoreIngester.Options(maxOpenWriters: 1, writerThreads: 1))
        var appended = false
        var rejections: [StoreIngester.Rejection] = []
        let report = try ingester.ingest(paths: [dir.file("in.ndjson")], onReject: { rejections.append($0) }, onProgress: { progress in
            guard !appended, progress.linesRead >= 16_384 else { return }
            // Another writer appends seq 101 to x's log as soon as the ingest lets go of it.
            let started = ContinuousClock.now
            while !appended, ContinuousClock.now - started < .seconds(60) {
                guard let path = Self.log(of: "x", in: store.directory) else { continue }
                do throws(LogError) {
                    let writer = try LogWriter(path: path)
                    try writer.append(try! EventParser.parse(mark("x", "other writer", seq: 101)))
                    try writer.close()
                    appended = true
                } catch {
                    guard case .locked = error.kind else { Issue.record("\(error)"); return }
                    usleep(1000)
                }
            }
        })
        #expect(appended)
        #expect(rejections.map(\.line) == [lines.count], "\(rejections)")
        #expect(rejections.first?.reason.contains("does not increase") == true)
        #expect(report.stored == lines.count - 1)
        let x = try readEvents(try #require(Self.log(of: "x", in: store.directory)))
        #expect(x.map(\.seq) == Array(1...104))
        #expect(x.suffix(4).map { if case .mark(let label) = $0.kind { label } else { "" } } == ["other writer", "late1", "late2", "late3"])
    }

    /// The log in `directory` holding `session`.
    static func log(of session: String, in directory: String) -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for name in names where name.hasSuffix(".navlog") {
            let path = directory + "/" + name
            if let reader = try? LogReader(path: path), (try? reader.session()) == session { return path }
        }
        return nil
    }
}
