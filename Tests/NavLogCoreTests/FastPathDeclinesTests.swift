import Testing
@testable import NavLogCore

/// A parser that meets a run of another producer's lines stops trying the
/// canonical fast path on each of them, and takes it up again when canonical
/// lines come back; either way each line's answer is the general parser's.
@Suite("Fast path after declined lines")
struct FastPathDeclinesTests {
    @Test func tryingStopsAfterEightDeclinesAndResumesOnAnAcceptedLine() {
        var declines = FastPathDeclines()
        for _ in 0..<8 {
            let tries = declines.shouldTry()
            #expect(tries)
            declines.declined()
        }
        var tried = 0
        for _ in 0..<640 where declines.shouldTry() {
            tried += 1
            declines.declined()
        }
        #expect(tried == 10, "one line in 64 is still tried")
        while !declines.shouldTry() {}
        declines.accepted()
        let next = (declines.shouldTry(), declines.shouldTry())
        #expect(next == (true, true), "every line is tried again")
    }

    /// Runs of producer lines and of canonical lines, alternating, through
    /// one parser: each event, rejection and canonical-form answer is the
    /// general parser's.
    @Test func mixedRunsParseAsTheGeneralParserDoes() throws {
        let canonical = CanonicalFormTests.canonicalLines.map { Array($0.utf8) }
        let producer = try canonical.map { line in
            var writer = ProducerLineWriter()
            writer.write(try EventParser.parse(line), style: ProducerLineStyle(offsetMinutes: -300, fractionDigits: 6))
            return writer.bytes
        }
        var lines: [[UInt8]] = []
        for round in 0..<6 {
            let run = round.isMultiple(of: 2) ? producer : canonical
            for k in 0..<150 { lines.append(run[(k + round) % run.count]) }
            lines.append(Array(#"{"session":"s","t":"2026-11-20T10:00:00Z","type":"stack.pop","count":0}"#.utf8))
        }
        var parser = EventLineParser(checkingCanonicalForm: true)
        var fastReads = 0
        for line in lines {
            var general = EventLineParser(checkingCanonicalForm: true, usingFastPath: false)
            let expected = Result { () throws(EventParseError) in try general.parse(line) }
            let fast = line.withUnsafeBytes { try? CanonicalLineParser.parse($0, storage: LineParserStorage(checkingCanonicalForm: true)) }
            let answer = Result { () throws(EventParseError) in try parser.parse(line) }
            switch (answer, expected) {
            case (.success(let a), .success(let b)):
                #expect(a == b, "\(String(decoding: line, as: UTF8.self))")
                #expect(parser.lastLineIsCanonical == general.lastLineIsCanonical, "\(String(decoding: line, as: UTF8.self))")
            case (.failure(let a), .failure(let b)):
                #expect(a.description == b.description)
            default:
                Issue.record("answers differ: \(String(decoding: line, as: UTF8.self))")
            }
            if fast != nil { fastReads += 1 }
        }
        #expect(fastReads >= 300, "the canonical runs are ones the fast path reads")
    }
}
