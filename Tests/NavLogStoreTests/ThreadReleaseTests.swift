import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

/// The last reference to a writer goes while its background thread is in
/// the middle of a group of blocks: the thread never holds the writer, so
/// the release happens on the releasing thread, which stops the background
/// thread and waits for it; the file is then whole and unlocked.
@Suite struct SealerReleaseTests {
    @Test func aWriterReleasedWhileItsThreadIsInsideAGroupStopsItThere() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(500)
        let options = LogWriterOptions(durability: .onFlush, maxBlockEvents: 100, sealsInBackground: true)
        let turnstile = ThreadTurnstile()
        var writer: LogWriter? = try LogWriter(path: path, options: options, sealerTurnstile: turnstile)
        turnstile.waitUntilArrived(1)          // the thread waits before its first group
        for event in events.prefix(200) { try writer!.append(event) }   // two blocks wait
        turnstile.admit(upTo: 1)               // it takes both as one group
        turnstile.waitUntilArrived(2)          // and stops between them
        withExtendedLifetime(writer) {}
        writer = nil                           // from this thread, the writer's only owner
        turnstile.admit(upTo: 2)
        // The release wrote both blocks and let go of the file: it opens at once.
        let again = try LogWriter(path: path, options: options)
        #expect(again.lastSeq == 200)
        for event in events.dropFirst(200) { try again.append(event) }
        try again.close()
        #expect(try readEvents(path) == events)
    }
}

/// A ``WorkerThread`` owns its closure, and so what the closure captures,
/// until the closure returns: whoever started it may let go at once.
@Suite struct WorkerThreadTests {
    /// Notes what happened, in order, from any thread.
    final class Journal: Sendable {
        private let entries = Locked<[String]>([])
        func note(_ entry: String) { entries.withLock { $0.append(entry) } }
        var all: [String] { entries.withLock { $0 } }
    }

    /// Notes its own end in a journal.
    final class Witness: @unchecked Sendable {
        let journal: Journal
        init(_ journal: Journal) { self.journal = journal }
        deinit { journal.note("freed") }
    }

    @Test func whatTheClosureCapturesLivesUntilItReturns() {
        let journal = Journal()
        let turnstile = ThreadTurnstile()
        var thread: WorkerThread?
        do {
            let witness = Witness(journal)
            thread = WorkerThread { [witness] in
                turnstile.pass()                     // waits for the test
                witness.journal.note("used")
            }
        }
        turnstile.waitUntilArrived(1)
        #expect(journal.all.isEmpty)                 // only the thread holds the witness now
        turnstile.admit(upTo: 1)
        thread?.join()
        #expect(journal.all == ["used", "freed"])
    }
}
