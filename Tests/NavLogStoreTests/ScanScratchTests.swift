import NavLogCore
import Testing
@testable import NavLogStore
import NavLogTestSupport

/// Cursors that share a ``LogScanScratch`` (one decoder, one set of buffers
/// and one parser for many logs) read what cursors of their own read, and
/// ``LogCursor/forEach(_:)`` hands out what ``LogCursor/next()`` does.
@Suite struct ScanScratchTests {
    static let options = LogWriterOptions(blockTargetBytes: 8 << 10, checkpointInterval: 300)

    /// Logs of different sessions and sizes, each with several blocks.
    static func logs(in dir: TemporaryDirectory) throws -> [(path: String, events: [Event])] {
        try (1...5).map { i in
            let events = sampleEvents(300 * i, session: "s-\(i)", seed: UInt64(i))
            let path = dir.file("s-\(i).navlog")
            try writeLog(path, events, options: options)
            return (path, events)
        }
    }

    static func drain(_ cursor: LogCursor) throws -> [Event] {
        var out: [Event] = []
        while let event = try cursor.next() { out.append(event) }
        return out
    }

    @Test func logsReadOneAfterAnotherWithOneScratch() throws {
        let dir = try TemporaryDirectory()
        let logs = try Self.logs(in: dir)
        let scratch = LogScanScratch()
        for _ in 0..<2 {
            for log in logs {
                let cursor = try LogReader(path: log.path).cursor(sharing: scratch)
                #expect(try Self.drain(cursor) == log.events)
            }
        }
    }

    /// Two live cursors on one scratch: the second gets its own buffers, so
    /// neither sees the other's block.
    @Test func interleavedCursorsOnOneScratchStayApart() throws {
        let dir = try TemporaryDirectory()
        let logs = try Self.logs(in: dir)
        let scratch = LogScanScratch()
        let a = try LogReader(path: logs[3].path).cursor(sharing: scratch)
        let b = try LogReader(path: logs[4].path).cursor(sharing: scratch)
        var fromA: [Event] = [], fromB: [Event] = []
        var doneA = false, doneB = false
        while !doneA || !doneB {
            if !doneA { if let e = try a.next() { fromA.append(e) } else { doneA = true } }
            if !doneB { if let e = try b.next() { fromB.append(e) } else { doneB = true } }
        }
        #expect(fromA == logs[3].events)
        #expect(fromB == logs[4].events)
        // After both are gone the scratch serves the next cursor again.
        let c = try LogReader(path: logs[0].path).cursor(sharing: scratch)
        #expect(try Self.drain(c) == logs[0].events)
    }

    /// A damaged log read with the scratch fails as without it, and the
    /// next log read with the same scratch is whole.
    @Test func aDamagedLogDoesNotSpoilTheNext() throws {
        let dir = try TemporaryDirectory()
        let logs = try Self.logs(in: dir)
        var bytes = fileBytes(logs[2].path)
        let reader = try LogReader(path: logs[2].path)
        let middle = reader.blocks[reader.blocks.count / 2]
        bytes[Int(middle.dataOffset) + middle.dataLength / 2] ^= 0x40
        let damaged = dir.file("damaged.navlog")
        writeFile(damaged, bytes)
        let scratch = LogScanScratch()
        var own: [Event] = [], shared: [Event] = []
        var ownError: FileError?, sharedError: FileError?
        do { try LogReader(path: damaged).cursor().forEach { own.append($0) } } catch let e as FileError { ownError = e }
        do {
            try LogReader(path: damaged).cursor(sharing: scratch).forEach { shared.append($0) }
        } catch let e as FileError {
            sharedError = e
        }
        #expect(ownError != nil)
        #expect(sharedError?.description == ownError?.description)
        #expect(shared == own)
        #expect(own == Array(logs[2].events.prefix(own.count)))
        let next = try LogReader(path: logs[1].path).cursor(sharing: scratch)
        #expect(try Self.drain(next) == logs[1].events)
    }

    @Test(arguments: [(1, Int.max), (1, 1), (250, 700), (899, 900), (1400, 2000), (1501, Int.max)])
    func forEachHandsOutWhatNextDoes(from: Int, to: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(1500, gaps: true)
        try writeLog(path, events, options: Self.options)
        let reader = try LogReader(path: path)
        let expected = try Self.drain(reader.cursor(fromSeq: from, toSeq: to))
        #expect(expected == events.filter { $0.seq >= from && $0.seq <= to })
        var got: [Event] = []
        try reader.cursor(fromSeq: from, toSeq: to).forEach { got.append($0) }
        #expect(got == expected)
        // Mixed: a few with next(), the rest with forEach, then next() says the end.
        let cursor = reader.cursor(fromSeq: from, toSeq: to)
        var mixed: [Event] = []
        for _ in 0..<3 { if let e = try cursor.next() { mixed.append(e) } }
        try cursor.forEach { mixed.append($0) }
        #expect(mixed == expected)
        #expect(try cursor.next() == nil)
    }

    /// An unflushed tail (events after the last sealed block) is handed out
    /// by forEach too, and a body's error stops it with the cursor where the
    /// failing event left it.
    @Test func forEachReadsTheTailAndStopsOnTheBodysError() throws {
        struct Stop: Error {}
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(2000)
        let writer = try writeLog(path, events, options: LogWriterOptions(durability: .everyAppend, blockTargetBytes: 64 << 10),
                                  close: false)
        let reader = try LogReader(path: path)
        #expect(!reader.tailEvents.isEmpty)
        var got: [Event] = []
        try reader.cursor().forEach { got.append($0) }
        #expect(got == events)
        let cursor = reader.cursor()
        var seen = 0
        #expect(throws: Stop.self) {
            try cursor.forEach { _ in
                seen += 1
                if seen == 1234 { throw Stop() }
            }
        }
        #expect(cursor.lastSeq == events[1233].seq)
        #expect(try cursor.next() == events[1234])
        withExtendedLifetime(writer) {}
    }
}

/// ``LogReader/scan(fromSeq:toSeq:workers:_:)`` hands out what a cursor does,
/// and fails where a cursor fails, while worker threads parse ahead.
@Suite struct ParallelScanTests {
    static let options = LogWriterOptions(blockTargetBytes: 8 << 10, checkpointInterval: 500)

    static func cursorEvents(_ reader: LogReader, _ from: Int, _ to: Int) throws -> ([Event], String?) {
        var out: [Event] = []
        do { try reader.cursor(fromSeq: from, toSeq: to).forEach { out.append($0) } } catch let e as FileError {
            return (out, e.description)
        }
        return (out, nil)
    }

    static func scanEvents(_ reader: LogReader, _ from: Int, _ to: Int, workers: Int) throws -> ([Event], String?) {
        var out: [Event] = []
        do { try reader.scan(fromSeq: from, toSeq: to, workers: workers) { out.append($0) } } catch let e as FileError {
            return (out, e.description)
        }
        return (out, nil)
    }

    @Test(arguments: [1, 2, 3])
    func rangesMatchTheCursor(workers: Int) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(6000, gaps: true)
        try writeLog(path, events, options: Self.options)
        let reader = try LogReader(path: path)
        #expect(reader.blocks.count > 20)
        let last = events.last!.seq
        let mid = reader.blocks[5]
        for (from, to) in [(1, Int.max), (0, 10), (mid.firstSeq, mid.lastSeq), (mid.firstSeq + 1, mid.lastSeq + 1),
                           (last / 3, last / 2), (last, Int.max), (last + 1, Int.max), (50, 49)] {
            let (expected, noError) = try Self.cursorEvents(reader, from, to)
            #expect(noError == nil)
            let (got, error) = try Self.scanEvents(reader, from, to, workers: workers)
            #expect(error == nil)
            #expect(got == expected, "fromSeq \(from) toSeq \(to)")
        }
        #expect(try Self.scanEvents(reader, 1, Int.max, workers: workers).0 == events)
    }

    @Test func aDamagedBlockFailsAfterTheSameEvents() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        try writeLog(path, sampleEvents(6000), options: Self.options)
        let clean = try LogReader(path: path)
        for victim in [1, clean.blocks.count / 2, clean.blocks.count - 1] {
            var bytes = fileBytes(path)
            let entry = clean.blocks[victim]
            bytes[Int(entry.dataOffset) + entry.dataLength / 2] ^= 0x10
            let damaged = dir.file("damaged-\(victim).navlog")
            writeFile(damaged, bytes)
            let reader = try LogReader(path: damaged)
            let (expected, expectedError) = try Self.cursorEvents(reader, 1, Int.max)
            for workers in [1, 2] {
                let (got, error) = try Self.scanEvents(reader, 1, Int.max, workers: workers)
                #expect(error == expectedError)
                #expect(got == expected)
            }
            let (got, error) = try Self.scanEvents(reader, 1, Int.max, workers: 2)
            #expect(expectedError != nil)
            #expect(error == expectedError)
            #expect(got == expected)
            #expect(got.count == clean.blocks[..<victim].reduce(0) { $0 + $1.eventCount })
        }
    }

    @Test func theBodysErrorStopsTheWorkers() throws {
        struct Enough: Error {}
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(6000)
        try writeLog(path, events, options: Self.options)
        let reader = try LogReader(path: path)
        var seen: [Event] = []
        #expect(throws: Enough.self) {
            try reader.scan(workers: 2) { event in
                if seen.count == 2500 { throw Enough() }
                seen.append(event)
            }
        }
        #expect(seen == Array(events.prefix(2500)))
        // Only blocks up to a few ahead of the failing one were read.
        #expect(reader.blocksDecompressed < reader.blocks.count)
    }

    @Test func theTailOfAGrowingLogIsScannedToo() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(4000)
        let writer = try writeLog(path, events, options: LogWriterOptions(durability: .everyAppend, blockTargetBytes: 8 << 10),
                                  close: false)
        let reader = try LogReader(path: path)
        #expect(!reader.tailEvents.isEmpty)
        #expect(reader.blocks.count > 2)
        #expect(try Self.scanEvents(reader, 1, Int.max, workers: 2).0 == events)
        #expect(try Self.scanEvents(reader, 3990, Int.max, workers: 2).0 == Array(events.suffix(11)))
        withExtendedLifetime(writer) {}
    }
}

/// ``LogWriterOptions/sealsInBackground``: the same file, byte for byte, and
/// `flush()` still durable when it returns.
@Suite struct BackgroundSealingTests {
    static func options(_ durability: LogWriterOptions.Durability, background: Bool) -> LogWriterOptions {
        LogWriterOptions(durability: durability, blockTargetBytes: 4 << 10, checkpointInterval: 300,
                         sealsInBackground: background)
    }

    @Test(arguments: [LogWriterOptions.Durability.everySeal, .onFlush])
    func theFileIsByteForByteTheSame(durability: LogWriterOptions.Durability) throws {
        let dir = try TemporaryDirectory()
        let events = sampleEvents(5000)
        var files: [[UInt8]] = []
        for background in [false, true] {
            let path = dir.file("s-\(background).navlog")
            let writer = try LogWriter(path: path, options: Self.options(durability, background: background))
            for (i, event) in events.enumerated() {
                try writer.append(event)
                if i % 1700 == 999 { try writer.flush() }   // an open data frame now and then
            }
            try writer.close()
            files.append(fileBytes(path))
            #expect(try readEvents(path) == events)
        }
        #expect(files[0].count > 100_000)
        #expect(files[0] == files[1])
    }

    /// Each flush leaves a file a fresh reader reads whole, while the
    /// writer goes on appending with its thread busy.
    @Test func flushIsDurableWhenItReturns() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(6000)
        let writer = try LogWriter(path: path, options: Self.options(.everySeal, background: true))
        for (i, event) in events.enumerated() {
            try writer.append(event)
            if (i + 1) % 1500 == 0 {
                try writer.flush()
                let reader = try LogReader(path: path)
                var seen: [Event] = []
                try reader.cursor().forEach { seen.append($0) }
                #expect(seen == Array(events.prefix(i + 1)))
            }
        }
        try writer.close()
        #expect(try readEvents(path) == events)
    }

    /// A writer released without close: what was flushed is there and the
    /// file opens; the thread is stopped, not left running.
    @Test func aWriterReleasedWithoutCloseLeavesAValidFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(3000)
        do {
            let writer = try LogWriter(path: path, options: Self.options(.onFlush, background: true))
            for event in events.prefix(2000) { try writer.append(event) }
            try writer.flush()
            for event in events.dropFirst(2000) { try writer.append(event) }
        }
        let stored = try readEvents(path)
        #expect(stored.count >= 2000)
        #expect(stored == Array(events.prefix(stored.count)))
        let writer = try LogWriter(path: path, options: Self.options(.onFlush, background: true))
        for event in events.dropFirst(stored.count) { try writer.append(event) }
        try writer.close()
        #expect(try readEvents(path) == events)
    }
}

/// ``LogReader/init(path:preloadingUpTo:)``: a small log read whole at once
/// reads exactly as one read block by block.
@Suite struct PreloadTests {
    @Test func aPreloadedLogReadsTheSame() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(3000)
        try writeLog(path, events, options: LogWriterOptions(blockTargetBytes: 8 << 10, checkpointInterval: 400))
        for limit in [0, 1 << 10, 1 << 20] {
            let reader = try LogReader(path: path, preloadingUpTo: limit)
            var seen: [Event] = []
            try reader.cursor().forEach { seen.append($0) }
            #expect(seen == events, "limit \(limit)")
            #expect(try reader.state(afterSeq: 1234).seq == 1234)
        }
        // Damage is found the same way.
        var bytes = fileBytes(path)
        let clean = try LogReader(path: path)
        let entry = clean.blocks[clean.blocks.count / 2]
        bytes[Int(entry.dataOffset) + 20] ^= 0x01
        let damaged = dir.file("damaged.navlog")
        writeFile(damaged, bytes)
        var errors: [String] = []
        for limit in [0, 1 << 20] {
            do { try LogReader(path: damaged, preloadingUpTo: limit).cursor().forEach { _ in } } catch let e as FileError {
                errors.append(e.description)
            }
        }
        #expect(errors.count == 2)
        #expect(errors.first == errors.last)
    }

    /// What a writer appends after the preload is read from the file.
    @Test func bytesAppendedAfterThePreloadAreRead() throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("s-1.navlog")
        let events = sampleEvents(4000)
        let options = LogWriterOptions(durability: .everyAppend, blockTargetBytes: 8 << 10)
        let writer = try writeLog(path, Array(events.prefix(1000)), options: options, close: false)
        let reader = try LogReader(path: path, preloadingUpTo: 1 << 20)
        let cursor = reader.cursor()
        var seen: [Event] = []
        try cursor.forEach { seen.append($0) }
        #expect(seen == Array(events.prefix(1000)))
        for event in events.dropFirst(1000) { try writer.append(event) }
        try writer.close()
        try reader.refresh()
        try cursor.forEach { seen.append($0) }
        #expect(seen == events)
    }
}
