import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

/// `OpenLogs` keeps at most its limit of logs open, and waits a moment for
/// a log it closed itself to be unlocked (a forked child may briefly hold
/// the lock); another writer's lock is still refused.
@Suite struct OpenLogsTests {
    static let t = Timestamp(milliseconds: 1_795_168_800_000)

    @Test func aLogClosedHereAndBrieflyLockedIsReopened() throws {
        let dir = try TemporaryDirectory()
        let logs = OpenLogs(limit: 1, options: LogWriterOptions())
        try logs.writer(for: 0, path: dir.file("a.navlog")).append(Event(session: "a", t: Self.t, kind: .mark(label: "1")))
        try logs.writer(for: 1, path: dir.file("b.navlog")).append(Event(session: "b", t: Self.t, kind: .mark(label: "1")))
        // a.navlog was closed to open b; another descriptor takes its lock
        // for a moment, as a forked child's copy would.
        let fd = open(dir.file("a.navlog"), O_RDONLY)
        #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        let release = Thread { Thread.sleep(forTimeInterval: 0.03); close(fd) }
        release.start()
        let a = try logs.writer(for: 0, path: dir.file("a.navlog"))
        #expect(try a.append(Event(session: "a", t: Self.t, kind: .mark(label: "2"))) == 2)
        #expect(logs.closeAll() == nil)
        #expect(try readEvents(dir.file("a.navlog")).map(\.seq) == [1, 2])
    }

    @Test func aLogLockedByAnotherWriterIsRefused() throws {
        let dir = try TemporaryDirectory()
        let logs = OpenLogs(limit: 1, options: LogWriterOptions())
        // Never opened here: refused at once.
        let other = try LogWriter(path: dir.file("c.navlog"))
        #expect(throws: LogError.self) { try logs.writer(for: 0, path: dir.file("c.navlog")) }
        try other.close()
        // Opened here, closed to open another, then taken by another writer:
        // refused after the short wait.
        try logs.writer(for: 0, path: dir.file("c.navlog")).append(Event(session: "c", t: Self.t, kind: .mark(label: "1")))
        try logs.writer(for: 1, path: dir.file("d.navlog")).append(Event(session: "d", t: Self.t, kind: .mark(label: "1")))
        let taker = try LogWriter(path: dir.file("c.navlog"))
        let started = Date()
        do {
            _ = try logs.writer(for: 0, path: dir.file("c.navlog"))
            Issue.record("a log another writer holds was opened")
        } catch {
            guard case .locked = error.kind else { Issue.record("\(error)"); return }
        }
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.1 && waited < 5, "waited \(waited) s")
        try taker.close()
        #expect(logs.closeAll() == nil)
    }

    /// A closed writer's buffers and compression context go to the next
    /// writer: each log is still exactly what a writer of its own writes.
    @Test func buffersHandedOnLeaveNothingBehind() throws {
        let dir = try TemporaryDirectory()
        // Small blocks, so a writer hands on buffers that held sealed and
        // unsealed lines, and a context that made several frames.
        let options = LogWriterOptions(blockTargetBytes: 300)
        func events(_ session: String, _ n: Int) -> [Event] {
            (1...n).map { Event(session: session, seq: $0, t: Timestamp(milliseconds: Self.t.milliseconds + Int64($0)),
                               kind: $0 % 3 == 0 ? .stackPush(stack: "home", value: RouteValue(type: "R", id: "\(session)-\($0)"))
                                                 : .mark(label: String(repeating: session, count: $0 % 7 + 1))) }
        }
        let sessions = ["a", "bb", "ccc", "a"]
        let logs = OpenLogs(limit: 1, options: options)
        for (route, session) in sessions.enumerated().dropLast() {
            for event in events(session, 20 + 7 * route) {
                try logs.writer(for: route, path: dir.file("\(session).navlog")).append(event)
            }
        }
        // "a" again: reopened with the buffers "ccc" handed on, continuing.
        for event in events("a", 40).dropFirst(20) { try logs.writer(for: 0, path: dir.file("a.navlog")).append(event) }
        #expect(logs.closeAll() == nil)
        for (session, count) in [("a", 40), ("bb", 27), ("ccc", 34)] {
            let alone = dir.file("alone-\(session).navlog")
            let writer = try LogWriter(path: alone, options: options)
            try writer.append(contentsOf: events(session, count))
            try writer.close()
            #expect(try readEvents(dir.file("\(session).navlog")) == readEvents(alone))
            #expect(try LogVerifier.verify(path: dir.file("\(session).navlog")).problems.isEmpty)
        }
        // Only a writer closed cleanly hands its buffers on.
        let open = try LogWriter(path: dir.file("open.navlog"), options: options)
        try open.append(events("open", 1)[0])
        #expect(open.handOnBuffers() == nil)
        try open.close()
        #expect(open.handOnBuffers() != nil)
    }
}
