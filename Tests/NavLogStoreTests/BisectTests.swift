import Foundation
import Testing
import NavLogCore
import NavLogSample
@testable import NavLogStore
import NavLogTestSupport

/// `LogBisect` and `DivergenceSearch` give the answer of a brute-force
/// replay of both sessions (docs/state.md) on generated pairs: diverging at the
/// start, the middle, the last event, never; prefixes; states that part and
/// meet again — with equal and with different block boundaries, and with
/// the same or different session ids (index path or folding).
@Suite("Bisect")
struct BisectTests {
    /// The brute-force answer: fold both, compare every shared position, then the length rule.
    static func bruteForce(_ a: [Event], _ b: [Event]) -> Int? {
        var x = NavigationState(session: "a"), y = NavigationState(session: "b")
        for k in 0..<min(a.count, b.count) {
            x.apply(a[k])
            y.apply(b[k])
            if !x.sameScenes(as: y) { return k + 1 }
        }
        return a.count == b.count ? nil : min(a.count, b.count) + 1
    }

    static let base: [Event] = {
        let generator = SampleGenerator(.init(sessions: 1, seed: 21, eventsPerSession: 700...700))
        return Array(generator.session(at: 0))
    }()

    /// Renumbers seqs 1… and gives every event `session`.
    static func renumbered(_ events: [Event], session: String) -> [Event] {
        events.enumerated().map { i, e in
            var e = e
            e.seq = i + 1
            e.session = session
            return e
        }
    }

    static func push(_ like: Event, _ id: String) -> Event {
        var e = like
        e.kind = .stackPush(stack: "bisect-test", value: RouteValue(type: "Odd", id: id))
        return e
    }

    static func mark(_ like: Event) -> Event {
        var e = like
        e.kind = .mark(label: "m")
        return e
    }

    /// Named pairs (A, B) of one base session.
    static func pairs() -> [(String, [Event], [Event])] {
        let n = base.count
        var out: [(String, [Event], [Event])] = [("never", base, base)]
        for k in [0, 1, n / 2, n - 2, n - 1] {
            var changed = base
            changed[k] = push(base[k], "x\(k)")
            out.append(("change at \(k + 1)", base, changed))
            out.append(("prefix \(k)", base, Array(base[..<k])))
            out.append(("prefix \(k) reversed", Array(base[..<k]), base))
            if k + 1 < n {
                // A has two marks where B pushes then pops: apart at k + 1 only.
                var a = base, b = base
                a[k] = mark(base[k]); a[k + 1] = mark(base[k + 1])
                b[k] = push(base[k], "y"); b[k + 1] = base[k + 1]
                b[k + 1].kind = .stackPop(stack: "bisect-test", count: 1)
                // Both need the stack to exist alike afterwards: A creates it empty too.
                a[k + 1].kind = .stackPopToRoot(stack: "bisect-test")
                out.append(("apart and together at \(k + 1)", a, b))
            }
        }
        return out
    }

    static func write(_ events: [Event], to path: String, options: LogWriterOptions) throws {
        let writer = try LogWriter(path: path, options: options)
        if !events.isEmpty { try writer.append(contentsOf: events) }
        try writer.close()
    }

    static let layouts: [(String, LogWriterOptions, LogWriterOptions)] = [
        ("same blocks", LogWriterOptions(maxBlockEvents: 50, checkpointInterval: 100),
                        LogWriterOptions(maxBlockEvents: 50, checkpointInterval: 100)),
        ("different blocks", LogWriterOptions(maxBlockEvents: 37, checkpointInterval: 100),
                             LogWriterOptions(maxBlockEvents: 64, checkpointInterval: 256)),
        ("default blocks", LogWriterOptions(), LogWriterOptions(blockTargetBytes: 4096)),
    ]

    @Test(arguments: [true, false])
    func logsAgreeWithBruteForce(sameSession: Bool) throws {
        let dir = try TemporaryDirectory()
        var indexUsed = 0
        var chainPastDivergence = 0
        for (name, a0, b0) in Self.pairs() {
            let a = Self.renumbered(a0, session: "s-a"), b = Self.renumbered(b0, session: sameSession ? "s-a" : "s-b")
            let expected = Self.bruteForce(a, b)
            // Folding from the start (NDJSON's path).
            let folded = DivergenceSearch.firstDivergence(a, b)
            #expect((folded.diverged ? folded.position : nil) == expected, "\(name): fold")
            for (layout, optionsA, optionsB) in Self.layouts {
                let pathA = dir.file("a.navlog"), pathB = dir.file("b.navlog")
                try? FileManager.default.removeItem(atPath: pathA)
                try? FileManager.default.removeItem(atPath: pathB)
                try Self.write(a, to: pathA, options: optionsA)
                try Self.write(b, to: pathB, options: optionsB)
                let outcome = try LogBisect.search(try LogReader(path: pathA), try LogReader(path: pathB))
                let got = outcome.search.diverged ? outcome.search.position : nil
                #expect(got == expected, "\(name), \(layout), same session \(sameSession)")
                if outcome.skippedEvents > 0 { indexUsed += 1 }
                // Where states part and meet again inside a block, the chains agree past
                // the divergence: only the content check keeps the answer exact.
                if layout == "same blocks", let expected, let agreed = outcome.chainAgreesThroughBlock,
                   (agreed + 1) * 50 >= expected + 50 { chainPastDivergence += 1 }
                if let expected, let got, got == expected {
                    // The events at the position are the ones there (when the side has one).
                    #expect(outcome.search.eventA == (expected <= a.count ? a[expected - 1] : nil))
                    #expect(outcome.search.eventB == (expected <= b.count ? b[expected - 1] : nil))
                    #expect(outcome.search.leadingA == Array(a[max(0, expected - 6)..<min(expected - 1, a.count)]))
                }
            }
        }
        // The index skips prefixes exactly when the sessions (hence the bytes) are the same.
        #expect(sameSession ? indexUsed > 10 : indexUsed == 0)
        #expect(sameSession ? chainPastDivergence >= 3 : chainPastDivergence == 0)
    }

    @Test func theIndexReadsFewBlocksWhenRunsPartNearTheEnd() throws {
        let dir = try TemporaryDirectory()
        let generator = SampleGenerator(.init(sessions: 1, seed: 9, eventsPerSession: 20_000...20_000))
        let a = Self.renumbered(Array(generator.session(at: 0)), session: "s")
        var b = a
        b[19_990] = Self.push(a[19_990], "late")
        let options = LogWriterOptions(blockTargetBytes: 16 << 10, checkpointInterval: 1024)
        try Self.write(a, to: dir.file("a.navlog"), options: options)
        try Self.write(b, to: dir.file("b.navlog"), options: options)
        let readerA = try LogReader(path: dir.file("a.navlog"))
        let outcome = try LogBisect.search(readerA, try LogReader(path: dir.file("b.navlog")))
        #expect(outcome.search.position == 19_991)
        #expect(readerA.blocks.count > 100)
        #expect(outcome.blocksDecompressed.a <= 10 && outcome.blocksDecompressed.b <= 10, "\(outcome.blocksDecompressed)")
        #expect(outcome.skippedEvents > 19_000)
    }

    @Test func seqAlignmentComparesAfterEachSeq() {
        func e(_ seq: Int, _ kind: EventKind) -> Event { Event(session: "s", seq: seq, t: Timestamp(milliseconds: 0), kind: kind) }
        let push = EventKind.stackPush(stack: "main", value: RouteValue(type: "A"))
        let a = [e(1, push), e(2, .mark(label: "x")), e(4, .mark(label: "y"))]
        let b = [e(1, push), e(4, .mark(label: "y"))]
        #expect(!DivergenceSearch.firstSeqDivergence(a, b).diverged)   // seq 2 only in A, no change
        #expect(DivergenceSearch.firstDivergence(a, b).position == 3)   // by position: B ends first
        let c = [e(1, push), e(3, .stackPop(stack: "main", count: 1)), e(4, .mark(label: "y"))]
        let found = DivergenceSearch.firstSeqDivergence(a, c)
        #expect(found.diverged && found.eventB?.seq == 3 && found.eventA == nil)
        let longer = a + [e(9, .mark(label: "z"))]
        let past = DivergenceSearch.firstSeqDivergence(a, longer)
        #expect(past.diverged && past.eventB?.seq == 9)
    }
}
