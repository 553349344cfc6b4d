import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// ``StoredSession/states(from:to:_:)``: a run of states from one fold off
/// the nearest checkpoint, each equal to folding the session's events to
/// that event's seq (what the viewer's `GET …/states` answers).
@Suite struct StoredSessionStatesTests {
    @Test func eachStateOfARangeIsTheFoldToItsSeq() throws {
        let dir = try TemporaryDirectory()
        let events = sampleEvents(600, session: "long", seed: 5, gaps: true)
        let path = try StoredSessionTests.store(dir, [sampleEvents(30, session: "short", seed: 6), events])
        let session = try StoredSession(store: path, session: "long")
        let last = events.last!.seq
        // Ranges that start before, at and across checkpoints (every 64 events), and run past the end.
        for (from, to) in [(1, 40), (60, 200), (129, 129), (last - 20, last + 50), (300, 299)] {
            var seen: [NavigationState] = []
            try session.states(from: from, to: to) { seen.append($0) }
            let inRange = events.filter { $0.seq >= from && $0.seq <= to }
            #expect(seen.count == inRange.count, "\(from)...\(to)")
            for (state, event) in zip(seen, inRange) {
                #expect(state.seq == event.seq)
                #expect(state == NavigationState(session: "long", folding: events, at: .seq(event.seq)), "seq \(event.seq)")
            }
        }
    }
}
