import Foundation
import NavLogCore
import NavLogStore
import Testing
import NavLogTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `navlog ingest` into a segment store (issue 25): where a store is made,
/// what is refused, re-runs that store nothing, conflicts, `.navlog`
/// inputs, one writer at a time, few files however many sessions.
@Suite struct SegmentIngestTests {
    static func mark(_ session: String, seq: Int? = nil, label: String = "m") -> String {
        // Canonical: members in key order.
        let seqField = seq.map { #""seq":\#($0),"# } ?? ""
        return #"{"label":"\#(label)",\#(seqField)"session":"\#(session)","t":"2026-11-20T10:00:00.000Z","type":"mark"}"#
    }

    /// `navlog ingest - --store STORE` started, reading a pipe: the process and the pipe.
    static func ingestFromPipe(store: String) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: navlogBinary())
        process.arguments = ["ingest", "-", "--store", store]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return (process, input)
    }

    static func names(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func aStoreIsMadeInANewOrEmptyDirectoryAndOthersAreRefused() throws {
        let dir = try TemporaryDirectory()
        let input = try dir.file("in.ndjson", Self.mark("a", seq: 1) + "\n")
        // Absent, then empty: a new segment store.
        #expect(navlog("ingest", input, "--store", dir.file("new")).status == 0)
        try FileManager.default.createDirectory(atPath: dir.file("empty"), withIntermediateDirectories: false)
        #expect(navlog("ingest", input, "--store", dir.file("empty")).status == 0)
        for store in ["new", "empty"] {
            #expect(Self.names(dir.file(store)) == ["00000001.nls", "00000001.views", "COMMITTED", "LOCK", "navlog-store"], "\(store)")
            #expect(try SegmentStoreContents.lines(dir.file(store)) == ["a": [Self.mark("a", seq: 1)]])
        }
        // A version-1 store: refused, one line naming the upgrade, nothing written.
        try FileManager.default.createDirectory(atPath: dir.file("v1"), withIntermediateDirectories: false)
        let oldLog = dir.file("v1/" + v1Log("a"))
        #expect(navlog("append", oldLog, stdin: Self.mark("a") + "\n").status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: oldLog))
        let v1 = navlog("ingest", input, "--store", dir.file("v1"), "--rejects", dir.file("rejects"))
        #expect(v1.status == 2 && v1.stdout.isEmpty)
        #expect(v1.stderr == "navlog: \(dir.file("v1")): a version-1 store (one .navlog file per session) is read-only; "
                + "convert it with `navlog store upgrade \(dir.file("v1"))`\n")
        #expect(Self.names(dir.file("v1")) == [v1Log("a")])
        #expect(try Data(contentsOf: URL(fileURLWithPath: oldLog)) == before)
        #expect(!FileManager.default.fileExists(atPath: dir.file("rejects")))
        // A directory holding something else: refused too.
        try FileManager.default.createDirectory(atPath: dir.file("other"), withIntermediateDirectories: false)
        _ = try dir.file("other/notes.txt", "x")
        let other = navlog("import", "ga4", input, "--store", dir.file("other"))
        #expect(other.status == 2 && other.stderr.contains("not empty and not a navlog store"), "\(other.stderr)")
        #expect(Self.names(dir.file("other")) == ["notes.txt"])
    }

    @Test func aReRunStoresNothingAndAConflictIsRejected() throws {
        let dir = try TemporaryDirectory()
        let text = navlog("generate", "--sessions", "5", "--seed", "3", "--interleave").stdout
        let events = text.split(separator: "\n").count
        let input = try dir.file("in.ndjson", text)
        let store = dir.file("store")
        #expect(navlog("ingest", input, "--store", store).status == 0)
        let before = try SegmentStoreContents.lines(store)
        let again = navlog("ingest", input, "--store", store)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(again.stdout == "stored 0 events of 0 sessions (0 new) in \(store); \(events) events already stored; 0 lines rejected\n")
        #expect(try SegmentStoreContents.lines(store) == before)
        // A different event at a stored seq: a conflict, with its reason, kept in --rejects.
        let conflicting = Self.mark("s-000002", seq: 3, label: "other")
        let bad = try dir.file("bad.ndjson", before["s-000002"]![1] + "\n" + conflicting + "\n")
        let r = navlog("ingest", bad, "--store", store, "--rejects", dir.file("rejects.ndjson"))
        #expect(r.status == 1)
        #expect(r.stderr.hasPrefix("navlog: \(bad):2: seq 3 of session s-000002 is stored with different content\n"), "\(r.stderr)")
        #expect(r.stdout.contains("1 event already stored; 1 line rejected"), "\(r.stdout)")
        #expect(try String(contentsOfFile: dir.file("rejects.ndjson"), encoding: .utf8) == conflicting + "\n")
        #expect(try SegmentStoreContents.lines(store) == before)
        #expect(try SegmentStoreContents.problems(store) == [])
    }

    /// A device's `.navlog` log is an input: its events are stored; given
    /// again, or with the same events as NDJSON, nothing is stored twice;
    /// NDJSON from another input continues it with explicit seqs.
    @Test func aNavlogLogIsIngestedAndDeduplicatedBySeq() throws {
        let dir = try TemporaryDirectory()
        let text = navlog("generate", "--sessions", "1", "--seed", "8", "--events-per-session", "40-40").stdout
        let log = dir.file("device.navlog")
        #expect(navlog("append", log, stdin: text).status == 0)
        let store = dir.file("store")
        let first = navlog("ingest", log, "--store", store)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("stored 40 events of 1 session (1 new)"), "\(first.stdout)")
        let more = try dir.file("more.ndjson", Self.mark("s-000001", seq: 41, label: "after") + "\n")
        let again = navlog("ingest", log, try dir.file("same.ndjson", text), more, "--store", store)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.hasPrefix("stored 1 event of 1 session (0 new) in \(store); 80 events already stored"), "\(again.stdout)")
        let stored = try #require(try SegmentStoreContents.lines(store)["s-000001"])
        #expect(stored.dropLast() == text.split(separator: "\n").map(String.init)[...])
        #expect(stored.last == Self.mark("s-000001", seq: 41, label: "after"))
    }

    /// One writer at a time: a second ingest fails at once, having written nothing.
    @Test(.timeLimit(.minutes(10))) func aSecondIngestIntoTheSameStoreFailsAtOnce() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        // The first waits on its standard input, holding the store.
        let (first, input) = try Self.ingestFromPipe(store: store)
        try input.fileHandleForWriting.write(contentsOf: Data((Self.mark("a", seq: 1) + "\n").utf8))
        let started = Date()
        while !FileManager.default.fileExists(atPath: store + "/navlog-store"), Date().timeIntervalSince(started) < 30 { usleep(10_000) }
        let files = Self.names(store)
        let second = navlog("ingest", try dir.file("b.ndjson", Self.mark("b", seq: 1) + "\n"), "--store", store)
        #expect(second.status == 2)
        #expect(second.stderr == "navlog: \(store): another writer holds the store's lock\n")
        #expect(second.stdout.isEmpty)
        #expect(Self.names(store) == files)
        try input.fileHandleForWriting.close()
        first.waitUntilExit()
        #expect(first.terminationStatus == 0)
        #expect(try SegmentStoreContents.lines(store) == ["a": [Self.mark("a", seq: 1)]])
    }

    #if os(Linux)
    /// 10,000 sessions under way at once: the ingest holds a few of the store's files open, not one a session.
    @Test(.timeLimit(.minutes(10))) func tenThousandSessionsUnderWayOpenAFewFiles() throws {
        let dir = try TemporaryDirectory()
        let store = dir.file("store")
        let (process, input) = try Self.ingestFromPipe(store: store)
        var lines = ""
        for round in 1...2 { for s in 0..<10_000 { lines += Self.mark("s-\(s)", seq: round) + "\n" } }
        try input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
        // Once it has read all of it, it waits for more: count what it holds open in the store.
        var mostOpen = 0
        let started = Date()
        while Date().timeIntervalSince(started) < 1.5 {
            let fds = "/proc/\(process.processIdentifier)/fd"
            let open = Self.names(fds).filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: fds + "/" + $0))?.hasPrefix(store) == true }
            mostOpen = max(mostOpen, open.count)
            usleep(50_000)
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // LOCK, the durable point, the segment, its screen projection: not one a session.
        #expect(mostOpen >= 1 && mostOpen <= 5, "\(mostOpen) files of the store open")
        let sessions = try SegmentReader(store: SegmentStore.open(at: store)).sessions()
        #expect(sessions.count == 10_000 && sessions.allSatisfy { $0.events == 2 && $0.lastSeq == 2 })
        #expect(Self.names(store).filter { $0.hasSuffix(".nls") }.count <= 2)
    }
    #endif
}
