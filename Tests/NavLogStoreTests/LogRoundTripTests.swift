import Foundation
import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

@Suite struct LogRoundTripTests {
    @Test(arguments: [1, 10, 5000, 30_000])
    func writeCloseRead(count: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(count)
        try writeLog(path, events, options: LogWriterOptions(blockTargetBytes: 64 << 10, checkpointInterval: 2000))
        let reader = try LogReader(path: path)
        #expect(reader.indexSource == .footer)
        #expect(reader.damage == nil)
        #expect(reader.eventCount == count)
        #expect(try readEvents(path) == events)
    }

    /// The format's promise (schemas/navlog-format.md): the real `lz4 -dc` prints exactly the
    /// canonical NDJSON of the log.
    @Test(arguments: [LogWriterOptions.Durability.onFlush, .everyAppend])
    func lz4ToolPrintsTheCanonicalNDJSON(durability: LogWriterOptions.Durability) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(durability == .everyAppend ? 700 : 20_000)
        try writeLog(path, events, options: LogWriterOptions(durability: durability, blockTargetBytes: 32 << 10,
                                                              checkpointInterval: 1000))
        let decoded = runForBytes(lz4Tool, ["-dc", path])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == ndjson(events))
        var content: [UInt8] = []
        try LogReader(path: path).forEachContent { content.append(contentsOf: $0) }
        #expect(content == decoded.stdout)
    }

    @Test func unclosedLogIsWalked() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(3000)
        let writer = try writeLog(path, events, options: LogWriterOptions(blockTargetBytes: 16 << 10), close: false)
        try writer.flush()
        let reader = try LogReader(path: path)
        #expect(reader.indexSource == .walk)
        #expect(try readEvents(path) == events)
        withExtendedLifetime(writer) {}
    }

    @Test func reopeningContinuesTheLog() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(5000)
        let options = LogWriterOptions(blockTargetBytes: 16 << 10, checkpointInterval: 700)
        try writeLog(path, Array(events[0..<2000]), options: options)
        try writeLog(path, Array(events[2000..<2001]), options: options)
        let writer = try LogWriter(path: path, options: options)
        #expect(writer.lastSeq == 2001)
        #expect(writer.session == "s-1")
        #expect(writer.recovery == nil)
        for event in events[2001...] { try writer.append(event) }
        try writer.close()
        #expect(try readEvents(path) == events)
        let decoded = runForBytes(lz4Tool, ["-dc", path])
        #expect(decoded.stdout == ndjson(events))
    }

    @Test func secondWriterIsRefusedAndReadersAreNot() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let first = try LogWriter(path: path)
        try first.append(sampleEvents(1)[0])
        try first.flush()
        do {
            _ = try LogWriter(path: path)
            Issue.record("a second writer opened the log")
        } catch {
            #expect(error.kind == .locked)
            #expect(error.description.contains("another writer holds the lock"))
        }
        let reader = try LogReader(path: path)
        #expect(reader.eventCount == 1)
        try first.close()
        let again = try LogWriter(path: path)
        #expect(again.lastSeq == 1)
        try again.close()
    }

    #if os(Linux)
    /// A child process another thread spawns holds a copy of every
    /// descriptor until its exec; a closed writer must not leave its lock
    /// held through that copy (the copy is made here with `dup`).
    @Test func aClosedWriterReleasesItsLockWhileACopyOfItsDescriptorLives() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let first = try LogWriter(path: path)
        try first.append(sampleEvents(1)[0])
        let copy = try #require(Self.duplicateOfOpenDescriptor(of: path))
        defer { close(copy) }
        try first.close()
        let again = try LogWriter(path: path)
        #expect(again.lastSeq == 1)
        try again.close()
    }

    /// A `dup` of this process's one open descriptor of `path`, found in /proc/self/fd.
    private static func duplicateOfOpenDescriptor(of path: String) -> Int32? {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        let matching = names.compactMap(Int32.init).filter {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target
        }
        guard matching.count == 1 else { return nil }
        let copy = dup(matching[0])
        return copy >= 0 ? copy : nil
    }
    #endif

    @Test func eventsAreValidatedBeforeTheyAreAccepted() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let writer = try LogWriter(path: path)
        let events = sampleEvents(5)
        try writer.append(events[2])
        #expect(throws: FileError.self) { try writer.append(events[1]) }      // seq goes back
        #expect(throws: FileError.self) { try writer.append(events[2]) }      // seq repeats
        var other = events[3]
        other.session = "s-2"
        #expect(throws: FileError.self) { try writer.append(other) }          // another session
        var farFuture = events[3]
        farFuture.t = Timestamp(milliseconds: 300_000_000_000_000)
        #expect(throws: FileError.self) { try writer.append(farFuture) }      // t has no RFC 3339 form
        // A batch is all or nothing.
        #expect(throws: FileError.self) { try writer.append(contentsOf: [events[3], events[0]]) }
        #expect(writer.lastSeq == 3)
        try writer.append(contentsOf: [events[3], events[4]])
        var unnumbered = events[0]
        unnumbered.seq = 0
        #expect(try writer.append(unnumbered) == 6)
        #expect(throws: FileError.self) { try writer.append(line: Array(#"{"session":"s-1","type":"mark"}"#.utf8)) }
        try writer.close()
        #expect(try readEvents(path).map(\.seq) == [3, 4, 5, 6])
    }

    @Test func cursorSeeksWithoutReadingEarlierBlocks() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(20_000, gaps: true)
        try writeLog(path, events, options: LogWriterOptions(blockTargetBytes: 8 << 10))
        let reader = try LogReader(path: path)
        #expect(reader.blocks.count > 50)
        let from = events[12_345].seq, to = events[12_400].seq
        let cursor = reader.cursor(fromSeq: from, toSeq: to)
        var got: [Event] = []
        while let e = try cursor.next() { got.append(e) }
        #expect(got == Array(events[12_345...12_400]))
        // A seq that falls in a gap starts at the next event.
        let gap = events.indices.first { events[$0 + 1].seq > events[$0].seq + 1 }!
        let cursor2 = reader.cursor(fromSeq: events[gap].seq + 1)
        #expect(try cursor2.next() == events[gap + 1])
    }

    /// Events without a seq are numbered as they are written, whether their
    /// line is written straight into the block (common kinds) or not (meta,
    /// session.start): the file is the one their numbered copies make.
    @Test func eventsWithoutSeqAreWrittenNumbered() throws {
        let dir = try TemporaryDirectory()
        let numbered = sampleEvents(3000)        // seqs 1…3000, some with meta, a session.start
        #expect(numbered.contains { $0.meta != nil })
        let unnumbered = numbered.map { var e = $0; e.seq = 0; return e }
        let options = LogWriterOptions(blockTargetBytes: 8192)
        let writer = try LogWriter(path: dir.file("a.navlog"), options: options)
        for (i, event) in unnumbered.enumerated() { #expect(try writer.append(event) == i + 1) }
        try writer.close()
        try writeLog(dir.file("b.navlog"), numbered, options: options)
        #expect(try readEvents(dir.file("a.navlog")) == numbered)
        #expect(fileBytes(dir.file("a.navlog")) == fileBytes(dir.file("b.navlog")))
    }

    /// A log whose lines do not carry the seqs its index says (written by a
    /// faulty writer; its checksums are right) is reported as damaged by
    /// every way of reading it — never read in a loop.
    @Test func linesThatDisagreeWithTheIndexAreDamage() throws {
        let dir = try TemporaryDirectory()
        let events = sampleEvents(2000).filter { $0.meta == nil }
        let writer = try LogWriter(path: dir.file("bad.navlog"), options: LogWriterOptions(blockTargetBytes: 4096))
        for event in events {
            // The line says seq 1 whatever the event's seq is.
            var wrong = event
            wrong.seq = 1
            var line = CanonicalWriter()
            line.write(wrong)
            try line.bytes.withUnsafeBytes { buf in _ = try writer.append(event, canonicalLine: buf) }
        }
        try writer.close()
        let reader = try LogReader(path: dir.file("bad.navlog"))
        #expect(reader.blocks.count > 5)
        func isCorrupt(_ body: () throws -> Void) -> Bool {
            do { try body() } catch let error as FileError {
                if case .corrupt = error.kind { return true }
            } catch {}
            return false
        }
        #expect(isCorrupt { _ = try readEvents(dir.file("bad.navlog")) })
        #expect(isCorrupt { try reader.cursor().forEach { _ in } })
        #expect(isCorrupt { try reader.cursor(fromSeq: 700).forEach { _ in } })
        #expect(isCorrupt { try reader.scan(workers: 1) { _ in } })
        #expect(try !LogVerifier.verify(path: dir.file("bad.navlog")).problems.isEmpty)
    }
}

/// A log holds one session, told apart by its exact bytes.
@Suite struct LogSessionBytesTests {
    @Test func aLogRefusesACanonicallyEquivalentButDifferentSession() throws {
        let dir = try TemporaryDirectory()
        let t = Timestamp(milliseconds: 1_795_168_800_000)
        let writer = try LogWriter(path: dir.file("cafe.navlog"))
        try writer.append(Event(session: "caf\u{E9}", t: t, kind: .mark(label: "a")))
        #expect(throws: FileError.self) {
            try writer.append(Event(session: "cafe\u{301}", t: t, kind: .mark(label: "b")))
        }
        try writer.append(Event(session: "caf\u{E9}", t: t, kind: .mark(label: "c")))
        try writer.close()
        let events = try readEvents(dir.file("cafe.navlog"))
        #expect(events.map(\.seq) == [1, 2])
        #expect(events.allSatisfy { Array($0.session.utf8) == Array("caf\u{E9}".utf8) })
    }

    /// Ids of every length around the two-word comparison's edges: the same
    /// bytes (as another string) are accepted, one byte off anywhere refused.
    @Test(arguments: [1, 3, 4, 7, 8, 9, 15, 16, 17, 40])
    func aSessionOneByteOffIsRefusedAtEveryLength(_ length: Int) throws {
        let dir = try TemporaryDirectory()
        let t = Timestamp(milliseconds: 1_795_168_800_000)
        let bytes = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let id = String(decoding: bytes, as: UTF8.self)
        let writer = try LogWriter(path: dir.file("s.navlog"))
        try writer.append(Event(session: id, t: t, kind: .mark(label: "first")))
        var refused = 0
        for at in Set([0, length / 2, length - 1]) {
            var other = bytes
            other[at] = UInt8(ascii: "Z")
            do {
                try writer.append(Event(session: String(decoding: other, as: UTF8.self), t: t, kind: .mark(label: "other")))
            } catch {
                refused += 1
            }
        }
        #expect(refused == Set([0, length / 2, length - 1]).count)
        #expect(throws: FileError.self) {
            try writer.append(Event(session: id + "a", t: t, kind: .mark(label: "longer")))
        }
        // The same bytes, built anew.
        try writer.append(Event(session: String(decoding: Array(id.utf8), as: UTF8.self), t: t, kind: .mark(label: "again")))
        try writer.close()
        let events = try readEvents(dir.file("s.navlog"))
        #expect(events.map(\.seq) == [1, 2])
        #expect(events.allSatisfy { Array($0.session.utf8) == bytes })
    }
}
