import NavLogCore
import NavLogTestSupport
import Testing
@testable import NavLogStore

/// The first read of an NDJSON file read in shares, split between the
/// shares' threads (``SessionFirstRead``): each share's session ends, the
/// lines it parses and the input's line count are those one thread finds
/// skimming the whole file.
@Suite struct NDJSONFirstReadTests {
    /// A share's ends, the lines it parses, and the lines read.
    struct Found: Equatable {
        var ends: [Int] = []
        var parses: [Int] = []
        var lines = 0
    }

    static func found(_ ends: SessionEnds, lines: Int) throws(SessionStreamError) -> Found {
        var found = Found(lines: ends.lines)
        while let line = try ends.next() { found.ends.append(line) }
        found.parses = (1...lines).filter { ends.parses($0) }
        return found
    }

    /// Each of `shares` shares' findings, its first read in `parts` parts on threads of their own.
    static func read(_ path: String, shares: Int, parts: Int, lines: Int, chunk: Int) throws -> [Found] {
        let first = SessionFirstRead(parts: parts, bytes: SessionSource.ndjson(path).fileSize)
        let results = Locked<[Int: Result<Found, SessionStreamError>]>([:])
        let read: @Sendable (Int) -> Void = { index in
            let share = NDJSONShare(index: index, count: shares)
            let result = Result { () throws(SessionStreamError) -> Found in
                let ends = try SessionEnds(path: path, share: share, chunk: chunk, firstRead: parts == 1 ? .whole : first)
                return try found(ends, lines: lines)
            }
            results.withLock { $0[index] = result }
        }
        let threads = (1..<shares).map { index in WorkerThread { read(index) } }
        read(0)
        for thread in threads { thread.join() }
        return try (0..<shares).map { index in try results.withLock { $0[index] }!.get() }
    }

    @Test(arguments: [false, true])
    func twoPartsFindWhatOneFinds(rejects: Bool) throws {
        let dir = try TemporaryDirectory()
        let path = dir.file("mixed.ndjson")
        let (lines, _, _) = NDJSONSharesTests.input(rejects: rejects)
        NDJSONSharesTests.write(lines, to: path)
        let count = lines.count + 1   // the blank last line
        for chunk in [3, 1 << 20] {
            let whole = try Self.read(path, shares: 2, parts: 1, lines: count, chunk: chunk)
            let split = try Self.read(path, shares: 2, parts: 2, lines: count, chunk: chunk)
            #expect(split == whole)
            #expect(whole.allSatisfy { $0.lines == count && !$0.ends.isEmpty })
            // Every line but the blank one is parsed by one share.
            #expect(Set(whole[0].parses).isDisjoint(with: whole[1].parses))
            #expect(whole[0].parses.count + whole[1].parses.count == count - 1)
        }
    }

    /// Parts are cut by bytes: the first ends where the second starts, the last reads to the end.
    @Test func partsCoverTheInputOnce() {
        let first = SessionFirstRead(parts: 2, bytes: 1001)
        #expect(first.range(of: 0) == (0, 500))
        #expect(first.range(of: 1) == (500, nil))
        #expect(SessionFirstRead.whole.range(of: 0) == (0, nil))
    }
}
