import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// One NDJSON file read by two threads at once, each a share of its
/// sessions (``NDJSONShare``): every session counted once, whole, its seqs
/// numbered in file order, whichever thread reads it; rejected lines noted
/// as one reader notes them.
@Suite struct NDJSONSharesTests {
    /// A session as a tally sees it: its first seq and its occurrences.
    static func record(_ occurrences: SessionOccurrences) -> String {
        "\(occurrences.session) first=\(occurrences.firstEventSeq ?? -1): "
            + occurrences.occurrences.map { "\($0.seq) \($0.target) \($0.name)" }.joined(separator: ", ")
    }

    /// 60 interleaved sessions of 1…9 events; every third line in another
    /// producer's style without `seq`, every other in that style with it,
    /// and session s-7's id written with an escape (so its lines cannot be
    /// skimmed and are parsed to find their session). With `rejects`, six
    /// lines that are rejected come between them: not JSON, no event, a
    /// bad time in a session the second share reads, a line over the
    /// length limit, one whose session cannot be skimmed, and at the end a
    /// repeated seq of that session. The lines, and the sessions' events.
    static func input(rejects: Bool) -> (lines: [[UInt8]], sessions: [[Event]], rejected: [Int]) {
        let sessions = (0..<60).map { i in sampleEvents(1 + i * 7 % 9, session: "s-\(i)", seed: UInt64(i + 1)) }
        let events = NDJSONSessionEndsTests.interleaved(sessions, seed: 11)
        var lines: [[UInt8]] = []
        var producer = ProducerLineWriter()
        for (i, event) in events.enumerated() {
            var line: [UInt8]
            if i % 2 == 0 {
                line = ndjson([event]).dropLast()
            } else {
                producer.reset()
                producer.write(event, style: ProducerLineStyle(offsetMinutes: 60, fractionDigits: 4, writesSeq: i % 3 != 0))
                line = producer.bytes
            }
            if event.session == "s-7" {
                var text = String(decoding: line, as: UTF8.self)
                text = text.replacingOccurrences(of: "\"s-7\"", with: #""s-\u0037""#)
                line = Array(text.utf8)
            }
            lines.append(line)
        }
        guard rejects else { return (lines, sessions, []) }
        // A session that the second share reads: its first line again, at
        // the end (its seq 1 is refused), and a line of it with a bad time.
        let victim = sessions.first { events in
            events.count > 1 && Array(events[0].session.utf8).withUnsafeBytes { XXHash64.hash($0) } % 2 == 1
        }!
        let victimID = victim[0].session
        let inserts: [(at: Int, line: [UInt8])] = [
            (40, Array("not json".utf8)),
            (80, Array(#"{"x":1}"#.utf8)),
            (100, Array(#"{"session":"\#(victimID)","t":"not a time","type":"mark","label":"a"}"#.utf8)),
            (120, [UInt8](repeating: UInt8(ascii: "x"), count: EventParser.maxLineBytes + 1)),
            (160, Array(#"{"session":"s-\u0031","t":"not a time","type":"mark","label":"a"}"#.utf8)),
            (lines.count, Array(ndjson([victim[0]]).dropLast())),
        ]
        for insert in inserts.sorted(by: { $0.at > $1.at }) { lines.insert(insert.line, at: insert.at) }
        let rejected = inserts.map { lines.lastIndex(of: $0.line)! + 1 }
        return (lines, sessions, rejected.sorted())
    }

    static func write(_ lines: [[UInt8]], to path: String) {
        writeFile(path, lines.flatMap { $0 + [0x0A] } + Array("\n".utf8))
    }

    /// Each session's record and the share (accumulator) that read it, and the notes.
    static func read(_ path: String, workers: Int) throws
        -> (sessions: [(share: Int, record: String)], notes: [String], error: SessionStreamError?) {
        let seen = Locked<[(share: Int, record: String)]>([])
        let notes = Locked<[String]>([])
        let stream = try SessionStream(paths: [path], workers: workers) { note in
            if case .rejected(let line, let ordinal) = note { notes.withLock { $0.append("\(ordinal): \(line)") } }
        }
        var made = 0
        do throws(SessionStreamError) {
            _ = try stream.scan(keepsMarks: true, make: { () -> Int in
                made += 1
                return made - 1
            }) { share, session in seen.withLock { $0.append((share, record(session))) } }
        } catch {
            return (seen.withLock { $0 }, notes.withLock { $0 }, error)
        }
        return (seen.withLock { $0 }, notes.withLock { $0 }, nil)
    }

    @Test func twoSharesReadEverySessionOnceWithItsSeqs() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("mixed.ndjson")
        let (lines, sessions, _) = Self.input(rejects: false)
        Self.write(lines, to: path)
        #expect(try SessionStream(paths: [path], workers: 2).sharedNDJSONFile == path)
        let expected = sessions.map { events in
            var occurrences = SessionOccurrences(session: events[0].session)
            for event in events { occurrences.add(event) }
            return Self.record(occurrences)
        }
        let two = try Self.read(path, workers: 2)
        #expect(two.error == nil)
        #expect(two.sessions.map(\.record).sorted() == expected.sorted())
        // Both threads read sessions, s-7's among them.
        #expect(Set(two.sessions.map(\.share)) == [0, 1])
        #expect(two.sessions.contains { $0.record.hasPrefix("s-7 first=1: ") })
        // The tallies equal one thread's.
        let funnel = Funnel(steps: [FunnelStep("Recipe/*"), FunnelStep("Recipe/*"), FunnelStep("mark:*")])
        func tallies(_ workers: Int) throws -> (FunnelSegments, ScreenPathTally) {
            let stream = try SessionStream(paths: [path], workers: workers)
            return (try stream.tally { FunnelSegments(funnel: funnel, by: ["app", "version"]) },
                    try stream.tally { ScreenPathTally(mode: .transitions) })
        }
        let (funnelOne, pathsOne) = try tallies(1)
        let (funnelTwo, pathsTwo) = try tallies(2)
        #expect(funnelTwo.tallies == funnelOne.tallies)
        #expect(funnelOne.tallies.values.map(\.sessions).reduce(0, +) == 60)
        #expect(ScreenPathReport(pathsTwo, top: 1000).rows == ScreenPathReport(pathsOne, top: 1000).rows)
    }

    /// Thousands of sessions under way at once (the table of their slots
    /// grows, and ended sessions' slots are given back and taken again),
    /// and two ids that are one `String` but not the same bytes: each
    /// session read whole, once, with its own seqs, by one thread or two.
    @Test(arguments: [1, 2])
    func manySessionsUnderWayAndIdsOfOtherBytesAreReadApart(workers: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("many.ndjson")
        var sessions = (0..<3000).map { i in sampleEvents(2 + i % 5, session: "u-\(i)", seed: UInt64(i + 1)) }
        sessions.append(sampleEvents(6, session: "caf\u{E9}", seed: 1))
        sessions.append(sampleEvents(4, session: "cafe\u{301}", seed: 2))
        writeFile(path, ndjson(NDJSONSessionEndsTests.interleaved(sessions, seed: 5)))
        let expected = sessions.map { events in
            var occurrences = SessionOccurrences(session: events[0].session)
            for event in events { occurrences.add(event) }
            return Self.record(occurrences)
        }
        let read = try Self.read(path, workers: workers)
        #expect(read.error == nil)
        #expect(read.sessions.count == sessions.count)
        #expect(read.sessions.map(\.record).sorted() == expected.sorted())
        // The two ids' sessions, by their bytes: 6 and 4 events.
        let bytes = read.sessions.map(\.record).filter { $0.hasPrefix("caf") }.map { Array($0.utf8) }
        #expect(bytes.count == 2)
        #expect(bytes.contains(Array(expected[3000].utf8)) && bytes.contains(Array(expected[3001].utf8)))
    }

    @Test func rejectedLinesAreNotedInOrderOnceByTwoShares() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("rejects.ndjson")
        let (lines, sessions, rejected) = Self.input(rejects: true)
        Self.write(lines, to: path)
        let one = try Self.read(path, workers: 1)
        let two = try Self.read(path, workers: 2)
        #expect(one.notes.count == 6)
        #expect(one.notes.enumerated().allSatisfy { i, note in note.hasPrefix("\(i + 1): \(path):\(rejected[i]): ") },
                "\(one.notes) at \(rejected)")
        #expect(two.notes == one.notes)
        for result in [one, two] {
            guard case .rejectedLines(path, 6)? = result.error else {
                Issue.record("expected 6 rejected lines, got \(String(describing: result.error))")
                continue
            }
        }
        // Every session is still read whole: a refused seq leaves its session as it was.
        #expect(two.sessions.map(\.record).sorted() == one.sessions.map(\.record).sorted())
        #expect(two.sessions.count == sessions.count)
        #expect(Set(two.sessions.map(\.share)) == [0, 1])
    }

    /// A share that runs far ahead waits for the other before its
    /// rejections are reported, and ``RejectionOrder`` reports them in line
    /// order whichever share hands them in first.
    @Test func rejectionsFromTwoSharesComeOutInLineOrder() {
        let notes = Locked<[Int]>([])
        let order = RejectionOrder(path: "x", shares: 2) { note in
            if case .rejected(let line, let ordinal) = note { notes.withLock { $0.append(line.line * 10 + ordinal) } }
        }
        order.reject(share: 1, line: 5, .lineTooLong(bytes: 9, limit: 1))
        order.reject(share: 1, line: 9, .lineTooLong(bytes: 9, limit: 1))
        #expect(notes.withLock { $0 } == [])
        order.reject(share: 0, line: 7, .lineTooLong(bytes: 9, limit: 1))
        // Share 1 has read line 9, share 0 only line 7.
        #expect(notes.withLock { $0 } == [51, 72])
        order.finish(share: 0)
        #expect(notes.withLock { $0 } == [51, 72, 93])
        order.finish(share: 1)
        #expect(order.count == 3)
    }
}
