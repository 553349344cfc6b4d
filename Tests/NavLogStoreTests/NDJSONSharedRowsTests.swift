import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// `export` of one NDJSON file on two threads, each rendering the rows of
/// a share of its sessions: the bytes one thread writes, in line order,
/// and rejected lines noted as one reader notes them.
@Suite struct NDJSONSharedRowsTests {
    /// What an export wrote, the notes, and the failure.
    struct Export: Equatable {
        var bytes: [UInt8] = []
        var notes: [String] = []
        var failure: String?
    }

    /// Exports `path` with `workers` threads (`chunkLines` lines to a chunk of merged rows, when given).
    static func export(_ path: String, workers: Int, chunkLines: Int? = nil, ndjson: Bool, withMarks: Bool) throws -> Export {
        let out = Locked<Export>(Export())
        let stream = try SessionStream(paths: [path], workers: workers) { note in
            if case .rejected(let line, let ordinal) = note { out.withLock { $0.notes.append("\(ordinal): \(line)") } }
        }
        let write: @Sendable ([UInt8]) -> Void = { bytes in out.withLock { $0.bytes += bytes } }
        do throws(SessionStreamError) {
            if let chunkLines {
                try stream.writeSharedRows(path, shares: workers, redactor: nil, chunkLines: chunkLines, to: write) {
                    ScreenRows(ndjson: ndjson, withMarks: withMarks)
                }
            } else {
                try stream.writeRows(redactor: nil, to: write) { ScreenRows(ndjson: ndjson, withMarks: withMarks) }
            }
        } catch {
            out.withLock { $0.failure = "\(error)" }
        }
        return out.withLock { $0 }
    }

    @Test(arguments: [false, true])
    func twoThreadsWriteOneThreadsRowsInOrder(rejects: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("mixed.ndjson")
        let (lines, _, rejected) = NDJSONSharesTests.input(rejects: rejects)
        NDJSONSharesTests.write(lines, to: path)
        #expect(try SessionStream(paths: [path], workers: 2).sharedNDJSONFile == path)
        for (ndjson, withMarks) in [(false, false), (false, true), (true, true)] {
            let one = try Self.export(path, workers: 1, ndjson: ndjson, withMarks: withMarks)
            #expect(one.bytes.count > 1000)
            #expect(one.notes.count == rejected.count)
            #expect((one.failure != nil) == rejects)
            #expect(try Self.export(path, workers: 2, ndjson: ndjson, withMarks: withMarks) == one)
            // Chunks of a few lines: many merges, and a share that runs ahead waits.
            for chunkLines in [1, 7, 64] {
                #expect(try Self.export(path, workers: 2, chunkLines: chunkLines, ndjson: ndjson, withMarks: withMarks) == one,
                        "\(chunkLines) lines a chunk, ndjson \(ndjson), marks \(withMarks)")
            }
        }
    }

    /// The merge writes a chunk once both shares handed it in, their rows by line.
    @Test func chunksAreMergedByLineOnceEveryShareHandedThemIn() {
        let written = Locked<[String]>([])
        let merge = ShareRowMerge(shares: 2, chunkLines: 10) { bytes in
            written.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
        }
        func chunk(_ rows: [(Int, String)]) -> ShareRowMerge.Chunk {
            var chunk = ShareRowMerge.Chunk()
            for (line, text) in rows { chunk.add(line: line) { $0 += Array(text.utf8) } }
            chunk.add(line: 99) { _ in }   // no rows: no mark
            return chunk
        }
        merge.deposit(share: 1, chunk: 0, chunk([(2, "b"), (3, "c"), (6, "f")]))
        #expect(written.withLock { $0 } == [])
        merge.deposit(share: 0, chunk: 0, chunk([(1, "a"), (4, "d"), (5, "e"), (7, "g")]))
        #expect(written.withLock { $0 } == ["abcdefg"])
        merge.deposit(share: 0, chunk: 1, chunk([(11, "k")]), waits: false)
        merge.finish(share: 0, failure: nil)
        merge.deposit(share: 1, chunk: 1, chunk([(12, "l")]))
        merge.deposit(share: 1, chunk: 2, chunk([(21, "u")]), waits: false)
        merge.finish(share: 1, failure: nil)
        #expect(written.withLock { $0 } == ["abcdefg", "kl", "u"])
        #expect(merge.chunk(of: 10) == 0 && merge.chunk(of: 11) == 1)
    }

    /// After a share fails, nothing more is written, and a share that runs ahead does not wait.
    @Test(.timeLimit(.minutes(10))) func aFailureStopsTheWriting() {
        let written = Locked<[String]>([])
        let merge = ShareRowMerge(shares: 2, chunkLines: 10) { bytes in
            written.withLock { $0.append(String(decoding: bytes, as: UTF8.self)) }
        }
        var chunk = ShareRowMerge.Chunk()
        chunk.add(line: 1) { $0 += Array("a".utf8) }
        merge.deposit(share: 0, chunk: 0, chunk)
        merge.finish(share: 1, failure: .rejectedLines(path: "x", count: 1))
        for index in 1...(2 * ShareRowMerge.aheadLimit) { merge.deposit(share: 0, chunk: index, chunk) }
        merge.finish(share: 0, failure: nil)
        #expect(written.withLock { $0 } == [])
        guard case .rejectedLines("x", 1)? = merge.failure else {
            Issue.record("expected the failure, got \(String(describing: merge.failure))")
            return
        }
    }
}
