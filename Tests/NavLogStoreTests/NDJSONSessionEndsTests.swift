import Foundation
import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// An NDJSON input's sessions end at their last line (``SessionEnds``): a
/// reader keeps only the sessions under way, one at a time when they come
/// one after another, and never ends a session that comes back later.
@Suite struct NDJSONSessionEndsTests {
    /// `count` sessions of 1…9 events each.
    static func sessions(_ count: Int) -> [[Event]] {
        (0..<count).map { i in sampleEvents(1 + i * 7 % 9, session: "s-\(i)", seed: UInt64(i + 1)) }
    }

    /// The sessions' lines mixed by a seeded shuffle that keeps each session's order.
    static func interleaved(_ sessions: [[Event]], seed: UInt64) -> [Event] {
        var rng = SeededGenerator(seed: seed)
        var next = [Int](repeating: 0, count: sessions.count)
        var left = Array(sessions.indices)
        var out: [Event] = []
        while !left.isEmpty {
            let pick = Int(rng.next() % UInt64(left.count))
            let s = left[pick]
            out.append(sessions[s][next[s]])
            next[s] += 1
            if next[s] == sessions[s].count { left.remove(at: pick) }
        }
        return out
    }

    /// Lines (1-based) that are the last of their session, and the most sessions under way at once.
    static func expectedEnds(_ lines: [Event]) -> (ends: [Int], underWay: Int) {
        var last: [String: Int] = [:]
        for (i, event) in lines.enumerated() { last[event.session] = i + 1 }
        var open = Set<String>(), most = 0
        for (i, event) in lines.enumerated() {
            open.insert(event.session)
            most = max(most, open.count)
            if last[event.session] == i + 1 { open.remove(event.session) }
        }
        return (last.values.sorted(), most)
    }

    /// What a stream reads from `path`: the lines that end a session, the
    /// most sessions under way, and a funnel and a paths tally.
    static func read(_ path: String) throws -> (ends: [Int], underWay: Int, funnel: FunnelSegments, paths: ScreenPathTally) {
        let stream = try SessionStream(paths: [path], workers: 1)
        var ends: [Int] = [], line = 0, open = Set<String>(), most = 0
        try stream.forEachNDJSONEvent(path) { event, endsSession in
            line += 1
            open.insert(event.session)
            most = max(most, open.count)
            if endsSession {
                ends.append(line)
                open.remove(event.session)
            }
        }
        let funnel = try stream.tally { FunnelSegments(funnel: Self.funnel, by: ["app", "version"]) }
        let paths = try stream.tally { ScreenPathTally(mode: .transitions) }
        return (ends, most, funnel, paths)
    }

    static let funnel = Funnel(steps: [FunnelStep("Recipe/*"), FunnelStep("Recipe/*"), FunnelStep("mark:*")])

    /// The tallies of whole sessions, counted one by one.
    static func reference(_ sessions: [[Event]]) -> (funnel: FunnelSegments, paths: ScreenPathTally) {
        var funnel = FunnelSegments(funnel: Self.funnel, by: ["app", "version"])
        var paths = ScreenPathTally(mode: .transitions)
        for events in sessions {
            var occurrences = SessionOccurrences(session: events[0].session)
            for event in events { occurrences.add(event) }
            funnel.add(occurrences)
            paths.add(occurrences)
        }
        return (funnel, paths)
    }

    @Test func sessionsOneAfterAnotherEndOneAtATime() throws {
        let dir = try TemporaryDirectory()
        let sessions = Self.sessions(40)
        let path = dir.file("one-after-another.ndjson")
        writeFile(path, ndjson(sessions.joined()))
        let read = try Self.read(path)
        let expected = Self.expectedEnds(Array(sessions.joined()))
        #expect(read.ends == expected.ends)
        #expect(read.underWay == 1)
        let reference = Self.reference(sessions)
        #expect(read.funnel.tallies == reference.funnel.tallies)
        #expect(ScreenPathReport(read.paths, top: 1000).rows == ScreenPathReport(reference.paths, top: 1000).rows)
    }

    @Test func interleavedSessionsEndOnlyAtTheirLastLine() throws {
        let dir = try TemporaryDirectory()
        let sessions = Self.sessions(40)
        let lines = Self.interleaved(sessions, seed: 7)
        let path = dir.file("interleaved.ndjson")
        // A blank line and a session that comes back after all the others.
        let late = sampleEvents(4, session: "late", seed: 99)
        var bytes = ndjson(late.prefix(2)) + Array("\n".utf8) + ndjson(lines) + ndjson(late.suffix(2))
        writeFile(path, bytes)
        let read = try Self.read(path)
        let all = Array(late.prefix(2)) + lines + Array(late.suffix(2))
        let expected = Self.expectedEnds(all)
        // (Counted by event: the blank line is not one.)
        #expect(read.ends == expected.ends)
        #expect(read.underWay == expected.underWay)
        #expect(read.underWay > 1)
        let reference = Self.reference(sessions + [late])
        #expect(read.funnel.tallies == reference.funnel.tallies)
        #expect(ScreenPathReport(read.paths, top: 1000).rows == ScreenPathReport(reference.paths, top: 1000).rows)
        // The first read, spilling its runs to temporary files every 3: the same ends, by line number.
        bytes = ndjson(late.prefix(2)) + ndjson(lines) + ndjson(late.suffix(2))
        writeFile(path, bytes)
        let ends = try SessionEnds(path: path, chunk: 3)
        var found: [Int] = []
        while let line = try ends.next() { found.append(line) }
        #expect(found == expected.ends)
    }

    /// The first read's table of sessions met lately (``RecentRuns``), so
    /// small that interleaved sessions keep taking each other's slots: the
    /// pairs it hands out and those it holds at the end give each session
    /// its last line, as one pair a run of adjacent lines does; with room
    /// for them all, one pair a session.
    @Test func recentRunsGiveEachSessionItsLastLine() {
        var rng = SeededGenerator(seed: 11)
        let hashes = (0..<40).map { _ in rng.next() }
        let lines = (1...3000).map { line in (hash: hashes[Int(rng.next() % 40)], line: line) }
        var last: [UInt64: Int] = [:]
        for line in lines { last[line.hash] = line.line }
        for slots in [2, 8, 1 << 16] {
            var recent = RecentRuns(slots: slots)
            var pairs: [PairKey] = []
            for line in lines { if let left = recent.meet(line.hash, line: line.line) { pairs.append(left) } }
            pairs += recent.remaining
            var found: [UInt64: Int] = [:]
            for pair in pairs { found[pair.first] = max(found[pair.first] ?? 0, Int(pair.second)) }
            #expect(found == last)
            if slots == 2 { #expect(pairs.count > 1000) }
            if slots == 1 << 16 { #expect(pairs.count == 40) }
        }
    }

    @Test func aSorterSpillingToFilesSortsLikeInMemory() throws {
        var rng = SeededGenerator(seed: 3)
        let pairs = (0..<200).map { _ in PairSorter.Pair(rng.next() % 17, rng.next() % 5) }
        let sorter = PairSorter(chunk: 7)
        for pair in pairs { try sorter.add(pair) }
        var out: [PairSorter.Pair] = []
        while let pair = try sorter.next() { out.append(pair) }
        #expect(out == pairs.sorted())
    }

    /// A chunk sorted by digits (``PairKey/radixSort(_:)``) comes out as
    /// `sorted()` has it: hashes over all 64 bits, with repeats whose lines
    /// come in any order, line numbers over a few bits, ends whose second
    /// is always 0, and pairs all alike.
    @Test func aRadixSortedChunkIsSortedLikeSorted() {
        var rng = SeededGenerator(seed: 5)
        let hashes = (0..<50).map { _ in rng.next() }
        let inputs: [[PairKey]] = [
            (0..<3000).map { _ in PairKey(hashes[Int(rng.next() % 50)], rng.next() % 100_000) },
            (0..<3000).map { _ in PairKey(rng.next(), rng.next()) },
            (0..<500).map { _ in PairKey(rng.next() % 3000, 0) },
            Array(repeating: PairKey(9, 4), count: 40),
            [PairKey(1, 2)],
            [],
        ]
        for input in inputs {
            var sorted = input
            PairKey.radixSort(&sorted)
            #expect(sorted == input.sorted())
        }
    }
}
