import Dispatch
import Foundation
import NavLogCore
import NavLogStore
import Testing

/// The one lock, the one directory-path rule and the one CSV field rule.
@Suite struct SmallRulesTests {
    @Test func lockedCountsEveryIncrementFromManyThreads() {
        let count = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<2_000 { count.withLock { $0 += 1 } }
        }
        #expect(count.withLock { $0 } == 16_000)
    }

    /// The changing side runs on a thread of its own, not on Dispatch's
    /// pool, which other tests may hold while this one waits.
    @Test(.timeLimit(.minutes(10))) func aWaiterWakesWhenAnotherThreadChangesTheValue() {
        let count = Locked(0)
        let done = Locked(false)
        let changer = Thread {
            for _ in 0..<100 {
                count.withLock { $0 += 1 }
                count.broadcast()
            }
            done.withLock { $0 = true }
            done.broadcast()
        }
        changer.start()
        #expect(count.withLock(when: { $0 == 100 }) { $0 } == 100)
        done.withLock(when: { $0 }) { _ in }
    }

    @Test func aTimedWaitEndsWhenTheValueIsNeverReady() {
        let ready = Locked(false)
        #expect(ready.withLock(when: { $0 }, milliseconds: 20) { $0 } == false)
    }

    @Test func aDirectoryPathLosesOneTrailingSlashButTheRootKeepsIt() {
        #expect(DirectoryPath.trimmed("store/") == "store")
        #expect(DirectoryPath.trimmed("a/store") == "a/store")
        #expect(DirectoryPath.trimmed("/") == "/")
        #expect(DirectoryPath.trimmed("") == "")
    }

    @Test func aCSVFieldIsQuotedOnlyWhenItMustBe() {
        #expect(CSVWriter.field("home") == "home")
        #expect(CSVWriter.field("a,b") == "\"a,b\"")
        #expect(CSVWriter.field("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(CSVWriter.field("two\nlines") == "\"two\nlines\"")
        var csv = CSVWriter()
        csv.row(["a,b", "say \"hi\""])
        #expect(csv.string == CSVWriter.field("a,b") + "," + CSVWriter.field("say \"hi\"") + "\n")
    }
}
