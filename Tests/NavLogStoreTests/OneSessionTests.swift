import NavLogTestSupport
import Foundation
import Testing
import NavLogCore
@testable import NavLogStore

@Suite("One session, wherever it lives (OneSession)")
struct OneSessionTests {
    /// The same session as a log, as NDJSON and in a segment store (beside another session).
    static func places(_ dir: TemporaryDirectory) throws -> (log: String, ndjson: String, store: String, events: [Event]) {
        let events = sampleEvents(40, session: "s-1", seed: 3)
        let log = dir.file("s-1.navlog")
        _ = try writeLog(log, events)
        let ndjson = dir.file("s-1.ndjson")
        writeFile(ndjson, Array(events.map { $0.canonicalLine + "\n" }.joined().utf8))
        let store = dir.file("store")
        let writer = try SegmentWriter(store: SegmentStore.create(at: store), options: smallSegmentOptions)
        let other = sampleEvents(25, session: "s-2", seed: 4)
        for (i, event) in events.enumerated() {
            try writer.add(Array(event.canonicalLine.utf8))
            if i < other.count { try writer.add(Array(other[i].canonicalLine.utf8)) }
        }
        try writer.close()
        return (log, ndjson, store, events)
    }

    @Test("A log, NDJSON and a stored session give the same events, states, lines and blame")
    func sameAnswersEverywhere() throws {
        let dir = try TemporaryDirectory()
        let p = try Self.places(dir)
        let sessions = try [OneSession.open(p.log, session: nil), OneSession.open(p.ndjson, session: nil),
                            OneSession.open(p.store, session: "s-1")]
        let filter = EventFilter(fromSeq: 3, toSeq: 30, types: ["stack.push", "stack.pop", "tab.select"])
        var answers: [(events: [Event], state: NavigationState, lines: [UInt8], blame: JSONValue)] = []
        for session in sessions {
            var lines: [UInt8] = []
            let passed = try session.lines(filter) { lines += $0 }
            #expect(passed == p.events.filter(filter.includes).count)
            answers.append((try session.events().events, try session.state(at: .seq(17)),
                            lines, try session.blame(at: .seq(25)).jsonValue(at: .seq(25))))
        }
        for answer in answers {
            #expect(answer.events == p.events)
            #expect(answer.state == answers[0].state)
            #expect(answer.lines == answers[0].lines && !answer.lines.isEmpty)
            #expect(answer.blame == answers[0].blame)
        }
        let (search, method) = try OneSession.divergence(sessions[0], sessions[2], bySeq: false, context: 3) { _ in }
        #expect(!search.diverged && method.name == "fold")
    }

    @Test("What a path names decides how it is read, and what cannot be read says why")
    func refusals() throws {
        let dir = try TemporaryDirectory()
        let p = try Self.places(dir)
        #expect(throws: OneSessionError.self) { try OneSession.open(p.store, session: nil) }
        do {
            _ = try OneSession.open(p.store, session: nil)
        } catch {
            #expect(error.description.contains("choose one of its sessions with --session ID"))
        }
        do {
            _ = try OneSession.open(p.log, session: "s-2")
            Issue.record("a log of another session opened")
        } catch {
            #expect(error.description == "\(p.log): holds session \"s-1\", not \"s-2\"")
        }
        // A segment file given for a log: its reader refuses it, naming the store.
        let segment = try #require(try segmentFiles(p.store).first)
        do {
            _ = try OneSession.open(segment, session: nil, form: .logOrStore)
            Issue.record("a segment file opened as a log")
        } catch {
            guard case .log = error else { Issue.record("\(error)"); return }
        }
        // NDJSON has no facts as a log has: info refuses it when a session is named.
        do {
            _ = try OneSession.open(p.ndjson, session: "s-1", form: .logOrStoreRefusingNDJSON)
            Issue.record("NDJSON opened for info")
        } catch {
            #expect(error.description == "\(p.ndjson): not a .navlog log or a store")
        }
        let facts = try OneSession.open(p.store, session: "s-1").summary()
        #expect(facts.jsonValue.canonicalText.contains("\"events\":40"))
        #expect(facts.damage == nil)
    }
}
