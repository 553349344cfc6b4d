import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

@Suite struct StateAndPolicyTests {
    /// The state at any seq or instant, from checkpoints plus a fold, is the
    /// state of folding the events from the start (docs/state.md).
    @Test(arguments: [false, true])
    func stateAtAnyPointMatchesAFullFold(timeGoesBackwards: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        var events = sampleEvents(6000, gaps: true)
        if timeGoesBackwards {
            // Every 50th event is stamped an hour earlier (t need not increase).
            for i in stride(from: 49, to: events.count, by: 50) {
                events[i].t = Timestamp(milliseconds: events[i].t.milliseconds - 3_600_000)
            }
        }
        try writeLog(path, events, options: LogWriterOptions(blockTargetBytes: 8 << 10, checkpointInterval: 700))
        let reader = try LogReader(path: path)
        #expect(reader.checkpoints.count >= 8)
        #expect(reader.blocks.last?.timeOrdered == !timeGoesBackwards)
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<25 {
            let i = Int(rng.next() % UInt64(events.count))
            let seq = events[i].seq
            let expected = NavigationState(session: "s-1", folding: events, at: .seq(seq))
            #expect(try reader.state(afterSeq: seq) == expected, "after seq \(seq)")
            let instant = events[i].t
            let atInstant = NavigationState(session: "s-1", folding: events, at: .instant(instant))
            #expect(try reader.state(atInstant: instant) == atInstant, "at \(instant.rfc3339)")
        }
        #expect(try reader.state(afterSeq: 0) == NavigationState(session: "s-1"))
        #expect(try reader.state(at: .end) == NavigationState(session: "s-1", folding: events))
        let before = Timestamp(milliseconds: events[0].t.milliseconds - 10_000_000)
        #expect(try reader.state(atInstant: before) == NavigationState(session: "s-1", folding: events, at: .instant(before)))
    }

    /// A state whose JSON is over the 1 MiB the JSON parser accepts is not
    /// checkpointed, and the state is still exact.
    @Test func hugeStatesAreFoldedNotCheckpointed() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let blob = JSONValue.string(String(repeating: "x", count: 150_000))
        var events: [Event] = []
        for i in 1...12 {
            events.append(Event(session: "s-1", seq: i, t: Timestamp(milliseconds: 1_795_168_800_000 + Int64(i)),
                                kind: .stackPush(stack: "home", value: RouteValue(type: "Blob", id: "\(i)", data: blob))))
        }
        try writeLog(path, events, options: LogWriterOptions(checkpointInterval: 3))
        let reader = try LogReader(path: path)
        // Checkpoints after events 3 and 6 (states under 1 MiB), none later.
        #expect(reader.checkpoints.map(\.seq) == [3, 6])
        #expect(try reader.state(afterSeq: 11) == NavigationState(session: "s-1", folding: events, at: .seq(11)))
        #expect(try LogVerifier.verify(path: path).isIntact)
    }

    static func size(_ path: String) -> Int { fileBytes(path).count }

    @Test func durabilityPolicies() throws {
        let dir = try TemporaryDirectory()
        let events = sampleEvents(20)
        // On flush: nothing reaches the file before flush().
        let a = dir.file("a.navlog")
        let wa = try LogWriter(path: a, options: LogWriterOptions(durability: .onFlush))
        for e in events { try wa.append(e) }
        #expect(Self.size(a) == NavLogFormat.preambleBytes)
        try wa.flush()
        #expect(try readEvents(a) == events)
        // Every append: each event is on disk when append returns.
        let b = dir.file("b.navlog")
        let wb = try LogWriter(path: b, options: LogWriterOptions(durability: .everyAppend))
        for (i, e) in events.enumerated() {
            try wb.append(e)
            #expect(try LogReader(path: b).eventCount == i + 1)
        }
        // Every seal: a sealed block is on disk, the open one is not.
        let c = dir.file("c.navlog")
        let wc = try LogWriter(path: c, options: LogWriterOptions(durability: .everySeal, maxBlockEvents: 8))
        for e in events { try wc.append(e) }
        #expect(try LogReader(path: c).eventCount == 16)
        // An interval of 0 ms: every append syncs.
        let d = dir.file("d.navlog")
        let wd = try LogWriter(path: d, options: LogWriterOptions(durability: .interval(milliseconds: 0)))
        for e in events { try wd.append(e) }
        #expect(try LogReader(path: d).eventCount == 20)
        for w in [wa, wb, wc, wd] { try w.close() }
        for p in [a, b, c, d] { #expect(try readEvents(p) == events) }
    }

    @Test func sealPolicies() throws {
        let dir = try TemporaryDirectory()
        let events = sampleEvents(30)
        let byCount = dir.file("count.navlog")
        try writeLog(byCount, events, options: LogWriterOptions(maxBlockEvents: 7))
        #expect(try LogReader(path: byCount).blocks.map(\.eventCount) == [7, 7, 7, 7, 2])
        let byAge = dir.file("age.navlog")
        try writeLog(byAge, events, options: LogWriterOptions(maxBlockAgeMilliseconds: 0))
        #expect(try LogReader(path: byAge).blocks.count == 30)
        let byK = dir.file("k.navlog")
        try writeLog(byK, events, options: LogWriterOptions(checkpointInterval: 12))
        let reader = try LogReader(path: byK)
        #expect(reader.blocks.map(\.lastSeq) == [12, 24, 30])
        #expect(reader.checkpoints.map(\.seq) == [12, 24])
        for log in [byCount, byAge, byK] { #expect(try readEvents(log) == events) }
    }

    @Test func writerAfterCloseAndTypedErrors() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let writer = try LogWriter(path: path)
        try writer.close()
        do {
            try writer.append(sampleEvents(1)[0])
            Issue.record("append after close")
        } catch {
            #expect(error.kind == .closed)
        }
        do {
            _ = try LogReader(path: dir.file("missing.navlog"))
            Issue.record("opened a missing file")
        } catch {
            guard case .io(let call, _) = error.kind else { Issue.record("\(error)"); return }
            #expect(call == "open")
            #expect(error.description.contains("missing.navlog"))
            #expect(!error.description.contains("\n"))
        }
    }
}
