import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// The compact per-session table that the writer keeps for the sessions it
/// forgot in an input, and `verify` for every session of a store: it
/// answers as a dictionary keyed by the exact id would, hash collisions
/// included, through removals and the compactions they cause.
@Suite("Per-session values for many sessions")
struct SessionValueTableTests {
    @Test func itAnswersAsADictionaryKeyedByTheExactID() {
        var table = SessionValueTable<Int>()
        var model: [[UInt8]: Int] = [:]
        var rng = SeededGenerator(seed: 11)
        // Few distinct hashes: most ids share one with others, so only the bytes tell them apart.
        func hash(_ id: [UInt8]) -> UInt64 { XXHash64.hash(id) % 509 }
        for step in 0..<20_000 {
            let id = Array("session-\(rng.next() % 1_000)-\(String(repeating: "x", count: Int(rng.next() % 3) * 20))".utf8)
            switch rng.next() % 3 {
            case 0, 1:
                let value = Int(rng.next() % 1_000_000)
                id.withUnsafeBytes { table.set(value, for: $0, hash: hash(id)) }
                model[id] = value
            default:
                let removed = id.withUnsafeBytes { table.removeValue(for: $0, hash: hash(id)) }
                if removed != model.removeValue(forKey: id) { Issue.record("step \(step): removed \(String(describing: removed))") }
            }
            if table.count != model.count { Issue.record("step \(step): \(table.count) values, \(model.count) expected") }
        }
        for (id, value) in model {
            #expect(id.withUnsafeBytes { table.value(for: $0, hash: hash(id)) } == value)
        }
        let absent = Array("not-there".utf8)
        #expect(absent.withUnsafeBytes { table.value(for: $0, hash: hash(absent)) } == nil)
        let empty: [UInt8] = []
        empty.withUnsafeBytes { table.set(-1, for: $0, hash: 0) }
        #expect(empty.withUnsafeBytes { table.value(for: $0, hash: 0) } == -1)
        table.removeAll()
        #expect(table.isEmpty && table.value(for: SessionKey(id: Array("session-1-".utf8))) == nil)
    }

    /// A writer that forgets every idle session at each of its many small
    /// commits keeps, for each one forgotten in the current input, the seq
    /// a line of it without a seq follows: its last accepted in that input,
    /// which is lower than its last stored one when the input re-sends it.
    @Test func aForgottenSessionIsNumberedOnWhereItsInputLeftIt() throws {
        let dir = try TemporaryDirectory()
        let sessions = segmentSessions(1_500, maxEvents: 6, seed: 21)
        let options = SegmentWriterOptions(blockTarget: 1 << 10, commitTarget: 4 << 10, sessionsKept: 0)
        let writer = try SegmentWriter(store: SegmentStore.create(at: dir.file("store")), options: options)
        for session in sessions { for line in session.lines { try writer.add(line) } }
        #expect(writer.counts.commits > 50 && writer.sessionsInMemory < 200)
        for session in sessions.prefix(500) { #expect(try writer.lastSeqInInput(of: session.id) == session.lines.count) }
        writer.startInput()
        // The last sessions' lines, still gathered when the input changed, land in a commit
        // of both inputs; forgotten after it, they have no line in this input.
        try writer.commit()
        try writer.commit()
        for session in sessions.suffix(3) + sessions.prefix(3) { #expect(try writer.lastSeqInInput(of: session.id) == 0) }
        // The same sessions again, each cut short: all duplicates, each forgotten before it is asked about.
        for session in sessions { for line in session.lines.prefix(1) { #expect(try writer.add(line) == .duplicate) } }
        try writer.commit()
        for session in sessions.suffix(500) {
            #expect(try writer.lastSeqInInput(of: session.id) == 1, "\(session.id)")
            #expect(try writer.lastSeq(of: session.id) == session.lines.count)
        }
        #expect(try writer.lastSeqInInput(of: "u-never") == 0)
        try writer.close()
    }
}
