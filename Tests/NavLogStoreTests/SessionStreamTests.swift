import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// Logs, stores and NDJSON read as one stream of sessions (what funnel,
/// paths and export read): in parallel, with results as if read one by one
/// in order, and the first failure in source order reported.
@Suite struct SessionStreamTests {
    /// A version-1 store of `count` small logs, named as that layout names
    /// sessions `s-00`, `s-01`, … (so listed in that order), each session different.
    static func store(in dir: TemporaryDirectory, count: Int) throws -> (path: String, events: [[Event]]) {
        let store = dir.file("store")
        var all: [[Event]] = []
        for i in 0..<count {
            let events = sampleEvents(20 + i % 7 * 30, session: "s-\(i)", seed: UInt64(i + 1))
            let name = VersionOneStore.fileName(forSession: String(format: "s-%02d", i))
            if i == 0 { _ = try VersionOneStore(directory: store, create: true) }
            try writeLog(store + "/" + name, events).close()
            all.append(events)
        }
        return (store, all)
    }

    /// One row per event: its session and seq. Each session's first event
    /// takes a while, so that both workers surely take sources.
    struct SeqRows: ExportRows {
        mutating func write(_ event: Event, view: ScreenView?, to out: inout [UInt8]) {
            if event.seq == 1 { usleep(2_000) }
            out += Array("\(event.session) \(event.seq)\n".utf8)
        }
    }

    /// The sessions counted, slowly (as ``SeqRows``).
    struct SessionNames: SessionTally {
        static var needsMarks: Bool { false }
        var names: [String] = []
        mutating func add(_ session: SessionOccurrences) {
            usleep(2_000)
            names.append(session.session)
        }
        mutating func merge(_ other: SessionNames) { names += other.names }
    }

    static func rows(_ stream: SessionStream) -> (text: String, error: SessionStreamError?) {
        let out = Locked<[UInt8]>([])
        do throws(SessionStreamError) {
            try stream.writeRows(redactor: nil, to: { bytes in out.withLock { $0 += bytes } }) { SeqRows() }
        } catch {
            return (String(decoding: out.withLock { $0 }, as: UTF8.self), error)
        }
        return (String(decoding: out.withLock { $0 }, as: UTF8.self), nil)
    }

    static func expected(_ sessions: some Sequence<[Event]>) -> String {
        sessions.flatMap { $0 }.map { "\($0.session) \($0.seq)\n" }.joined()
    }

    /// A session's `app.version` is its first `session.start`'s, in a
    /// version-1 store as in a segment store: none when that one has none,
    /// whatever a later one says.
    @Test func appVersionIsTheFirstSessionStartsInBothLayouts() throws {
        let dir = try TemporaryDirectory()
        let events = [
            Event(session: "c", seq: 1, t: Timestamp(milliseconds: 0), kind: .sessionStart(app: ["name": .string("x")], device: nil)),
            Event(session: "c", seq: 2, t: Timestamp(milliseconds: 1000),
                  kind: .sessionStart(app: ["version": .string("3.0")], device: nil)),
            Event(session: "d", seq: 1, t: Timestamp(milliseconds: 0), kind: .mark(label: "m")),
            Event(session: "d", seq: 2, t: Timestamp(milliseconds: 1000),
                  kind: .sessionStart(app: ["version": .string("4.0")], device: nil)),
        ]
        let v1 = try VersionOneStore(directory: dir.file("v1"), create: true)
        for id in ["c", "d"] {
            let writer = try v1.openWriter(forSession: id)
            for event in events where event.session == id { try writer.append(event) }
            try writer.close()
        }
        writeFile(dir.file("in.ndjson"), ndjson(events))
        _ = try StoreIngester(store: SegmentStore.create(at: dir.file("segments")))
            .ingest(paths: [dir.file("in.ndjson")], onReject: { Issue.record("\($0)") })
        for store in [dir.file("v1"), dir.file("segments")] {
            var versions: [String: String?] = [:]
            try SessionListing.list(SessionListing.sources(ofStore: store), filter: SessionFilter()) { versions[$0.id] = $0.appVersion }
            #expect(versions == ["c": nil, "d": "4.0"], "\(store)")
        }
    }

    @Test func pathsResolveToLogsInNameOrderAndNDJSON() throws {
        let dir = try TemporaryDirectory()
        let (store, _) = try Self.store(in: dir, count: 3)
        writeFile(dir.file("more.ndjson"), ndjson(sampleEvents(5, session: "n-1")))
        let sources = try SessionSource.resolve([dir.file("more.ndjson"), store, "-", store + "/" + VersionOneStore.fileName(forSession: "s-01")])
        #expect(sources == [.ndjson(dir.file("more.ndjson")), .log(store + "/" + VersionOneStore.fileName(forSession: "s-00")), .log(store + "/" + VersionOneStore.fileName(forSession: "s-01")),
                            .log(store + "/" + VersionOneStore.fileName(forSession: "s-02")), .ndjson("-"), .log(store + "/" + VersionOneStore.fileName(forSession: "s-01"))])
        #expect(throws: SessionStreamError.self) { try SessionSource.resolve([dir.file("absent")]) }
    }

    /// Many small logs and an NDJSON file of interleaved sessions, on two
    /// workers: every row, in source order, as one worker writes them.
    @Test func rowsComeOutInSourceOrder() throws {
        let dir = try TemporaryDirectory()
        let (store, logs) = try Self.store(in: dir, count: 80)
        let a = sampleEvents(40, session: "n-a", seed: 7), b = sampleEvents(30, session: "n-b", seed: 8)
        var mixed: [Event] = []
        for i in 0..<max(a.count, b.count) {
            if i < a.count { mixed.append(a[i]) }
            if i < b.count { mixed.append(b[i]) }
        }
        writeFile(dir.file("mixed.ndjson"), ndjson(mixed))
        let paths = [store, dir.file("mixed.ndjson"), store + "/" + VersionOneStore.fileName(forSession: "s-03")]
        let parallel = Self.rows(try SessionStream(paths: paths, workers: 2))
        #expect(parallel.error == nil)
        #expect(parallel.text == Self.expected(logs + [mixed, logs[3]]))
        #expect(Self.rows(try SessionStream(paths: paths, workers: 1)).text == parallel.text)
    }

    /// An NDJSON file among other sources is read as one share of itself
    /// (``SessionStream/writeSharedRows(_:shares:redactor:chunkLines:to:_:)``):
    /// its rows come in their turn, each rejected line is noted once,
    /// numbered from 1, and its rejection ends the rows after it.
    @Test func anNDJSONSourceAmongOthersWritesItsRowsThenItsRejection() throws {
        let dir = try TemporaryDirectory()
        let (store, logs) = try Self.store(in: dir, count: 4)
        let a = sampleEvents(30, session: "n-a", seed: 7), b = sampleEvents(20, session: "n-b", seed: 8)
        let path = dir.file("mixed.ndjson")
        writeFile(path, ndjson(Array(a.prefix(10)) + b) + Array("not json\n".utf8) + ndjson(Array(a.dropFirst(10))))
        for workers in [1, 2] {
            let notes = Locked<[String]>([])
            let stream = try SessionStream(paths: [store, path, store], workers: workers) { note in
                if case .rejected(let line, let ordinal) = note { notes.withLock { $0.append("\(ordinal): \(line.line)") } }
            }
            let result = Self.rows(stream)
            #expect(result.text == Self.expected(logs + [Array(a.prefix(10)) + b + Array(a.dropFirst(10))]), "\(workers) workers")
            guard case .rejectedLines(path, 1)? = result.error else {
                Issue.record("\(workers) workers: \(String(describing: result.error))")
                continue
            }
            #expect(notes.withLock { $0 } == ["1: 31"])
        }
    }

    /// A damaged log in the middle: the logs before it are written, nothing
    /// after it, and its damage is the error — however the workers race.
    @Test func aFailureStopsTheRowsAfterIt() throws {
        let dir = try TemporaryDirectory()
        let (store, logs) = try Self.store(in: dir, count: 60)
        let broken = store + "/" + VersionOneStore.fileName(forSession: "s-20")
        var bytes = fileBytes(broken)
        bytes.replaceSubrange(0..<8, with: [UInt8](repeating: 0x41, count: 8))
        writeFile(broken, bytes)
        for _ in 0..<5 {
            let result = Self.rows(try SessionStream(paths: [store], workers: 2))
            #expect(result.error != nil)
            #expect(result.text == Self.expected(logs[..<20]))
        }
    }

    /// Tallies counted on two workers and merged equal one count of every session.
    @Test func aTallyCountsEverySessionOnce() throws {
        let dir = try TemporaryDirectory()
        let (store, logs) = try Self.store(in: dir, count: 40)
        var expected = ScreenPathTally(mode: .transitions)
        for events in logs {
            var occurrences = SessionOccurrences(session: events[0].session, keepsMarks: false)
            for event in events { occurrences.add(event) }
            expected.add(occurrences)
        }
        let names = try SessionStream(paths: [store], workers: 2).tally { SessionNames() }.names
        #expect(names.sorted() == logs.map { $0[0].session }.sorted())
        let tally = try SessionStream(paths: [store], workers: 2).tally { ScreenPathTally(mode: .transitions) }
        #expect(tally.sessions == 40)
        #expect(tally.total == expected.total)
        #expect(ScreenPathReport(tally, top: 1000).rows == ScreenPathReport(expected, top: 1000).rows)
    }

    /// Rejected NDJSON lines are noted one by one, numbered within their file,
    /// and the file's rejection is the error.
    @Test func rejectedLinesAreNotedAndEndTheRead() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("bad.ndjson")
        writeFile(path, ndjson(sampleEvents(3, session: "n-1")) + Array("{\"x\":1}\nnot json\n".utf8))
        let notes = Locked<[Int]>([])
        let stream = try SessionStream(paths: [path]) { note in
            if case .rejected(let line, let ordinal) = note { notes.withLock { $0.append(line.line * 100 + ordinal) } }
        }
        var sessions = 0
        #expect {
            try stream.forEachSession(in: stream.sources[0], keepsMarks: true) { _ in sessions += 1 }
        } throws: { error in
            guard case .rejectedLines(path, 2) = error as? SessionStreamError else { return false }
            return true
        }
        // n-1 ends at line 3, before the rejected lines: it was handed out, and the read still fails.
        #expect(sessions == 1)
        #expect(notes.withLock { $0 } == [401, 502])
    }
}

