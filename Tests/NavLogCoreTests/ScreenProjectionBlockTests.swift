import Testing
@testable import NavLogCore

/// A screen-projection block gives back the runs it was made of
/// (schemas/screen-projection.md §2).
@Suite struct ScreenProjectionBlockTests {
    @Test("Runs round-trip: empty runs, times that go back, large seqs, names and scenes shared, session.start templates")
    func roundTrip() throws {
        let t = Timestamp(milliseconds: 1_795_000_000_000)
        func start(_ session: String, _ seq: Int, _ ms: Int64, version: String) -> Event {
            Event(session: session, seq: seq, t: Timestamp(milliseconds: ms), kind: .sessionStart(app: ["version": .string(version)], device: nil))
        }
        let runs = [
            ScreenProjectionRun(session: "a", firstSeq: 1, firstT: t, sessionStart: start("a", 1, t.milliseconds, version: "1.0"), occurrences: [
                FunnelOccurrence(seq: 2, t: Timestamp(milliseconds: t.milliseconds + 1500), target: .screen, name: "Recipe/7"),
                FunnelOccurrence(seq: 9, t: Timestamp(milliseconds: t.milliseconds - 20), target: .mark, name: "buy", scene: "w2"),
                FunnelOccurrence(seq: 1 << 40, t: Timestamp(milliseconds: t.milliseconds + (1 << 33)), target: .url, name: "app://é"),
            ]),
            ScreenProjectionRun(session: "b-ü", firstSeq: 7, firstT: Timestamp(milliseconds: -5), sessionStart: nil, occurrences: []),
            ScreenProjectionRun(session: "c", firstSeq: 3, firstT: t, sessionStart: start("c", 4, t.milliseconds + 9, version: "1.0"), occurrences: [
                FunnelOccurrence(seq: 5, t: t, target: .screen, name: "Recipe/7"),
            ]),
        ]
        let bytes = ScreenProjectionBlock.encode(commit: 12, indexOffset: 90_112, runs: runs)
        let block = try ScreenProjectionBlock(decoding: bytes)
        #expect(block.commit == 12 && block.indexOffset == 90_112 && block.sessionCount == 3 && block.rowCount == 4)
        #expect(block.names == ["Recipe/7", "buy", "app://é"] && block.starts.count == 1)
        #expect((0..<3).map(block.run) == runs)
        #expect(ScreenProjectionBlock.encode(commit: 12, indexOffset: 90_112, runs: (0..<3).map(block.run)) == bytes)

        // Without its templates: the same ids, rows and start columns, and no template parsed.
        let bare = try ScreenProjectionBlock(decoding: bytes, withTemplates: false)
        #expect(block.hasTemplates && !bare.hasTemplates && bare.starts.isEmpty && bare.startCount == block.startCount)
        for i in 0..<3 {
            var rows: [[Int64]] = [], bareRows: [[Int64]] = []
            block.forEachRow(of: i) { rows.append([Int64($0), $1, Int64($2), Int64($3), Int64($4)]) }
            bare.forEachRow(of: i) { bareRows.append([Int64($0), $1, Int64($2), Int64($3), Int64($4)]) }
            #expect(rows == bareRows && bare.sessionID(i) == block.sessionID(i) && bare.startIndex(i) == block.startIndex(i))
            #expect(bare.withSessionID(i) { Array($0) } == Array(block.sessionID(i)))
        }
    }

    @Test("Blocks decoded with one template table, with room or full, give the runs they were made of; a bad template is still refused")
    func sharedTemplates() throws {
        let t = Timestamp(milliseconds: 1_795_000_000_000)
        func run(_ session: String, _ version: String) -> ScreenProjectionRun {
            let start = Event(session: session, seq: 1, t: t, kind: .sessionStart(app: ["version": .string(version)], device: nil))
            return ScreenProjectionRun(session: session, firstSeq: 1, firstT: t, sessionStart: start,
                                       occurrences: [FunnelOccurrence(seq: 2, t: t, target: .screen, name: "Home")])
        }
        let first = [run("a", "1.0"), run("b", "2.0")], second = [run("c", "2.0"), run("d", "3.0")]
        // Room for every template (kept parsed), and for one (full: the blocks keep them as bytes, parsed when asked for).
        for capacity in [8192, 1] {
            var templates = SessionStartTemplates(capacity: capacity)
            for runs in [first, second, first] {
                let bytes = ScreenProjectionBlock.encode(commit: 1, indexOffset: 0, runs: runs)
                let block = try ScreenProjectionBlock(decoding: bytes, withTemplates: true, templates: &templates)
                #expect((0..<runs.count).map(block.run) == runs)
                #expect(block.starts.isEmpty == (capacity == 1))
            }
            #expect(templates.isFull == (capacity == 1))
            // A template that is not an event, after good ones in the same table: refused.
            var bytes = ScreenProjectionBlock.encode(commit: 1, indexOffset: 0, runs: [run("e", "4.0")])
            let template = Array(#"{"app":{"version":"4.0"}"#.utf8)
            let at = try #require(bytes.indices.first { bytes[$0...].starts(with: template) })
            bytes[at + 6] = UInt8(ascii: ",")   // {"app",{…: not JSON
            #expect(throws: ScreenProjectionError.self) { try ScreenProjectionBlock(decoding: bytes, withTemplates: true, templates: &templates) }
        }
    }

    @Test("Columns of zeros take no bytes, even as the block's last: more values than bytes left is not \"cut short\"")
    func zeroWidthColumnsAtTheEnd() throws {
        let t = Timestamp(milliseconds: 1_795_000_000_000)
        // Every row at its run's first time: the last column (dt) is all zeros, with 3 values and no bytes.
        let rows = (2...4).map { FunnelOccurrence(seq: $0, t: t, target: .screen, name: "Home") }
        let runs = [ScreenProjectionRun(session: "a", firstSeq: 1, firstT: t, sessionStart: nil, occurrences: rows)]
        let bytes = ScreenProjectionBlock.encode(commit: 1, indexOffset: 0, runs: runs)
        #expect(bytes.last == 0, "the dt column's width byte ends the block")
        #expect(try ScreenProjectionBlock(decoding: bytes).run(0) == runs[0])
    }

    @Test("An empty block, and bytes after the last column, are told apart")
    func emptyAndTrailing() throws {
        let empty = ScreenProjectionBlock.encode(commit: 1, indexOffset: 0, runs: [])
        #expect(try ScreenProjectionBlock(decoding: empty).sessionCount == 0)
        #expect(throws: ScreenProjectionError.self) { try ScreenProjectionBlock(decoding: empty + [0]) }
    }

    @Test("A session.start template made from the canonical line is the one made from the event")
    func templateFromTheLine() throws {
        let starts = [
            Event(session: "s-1", seq: 1, t: Timestamp(milliseconds: 1_795_000_000_123), kind: .sessionStart(app: nil, device: nil)),
            Event(session: #"a"b\c"#, seq: 1 << 40, t: Timestamp(milliseconds: -86_400_001), scene: "w2",
                  kind: .sessionStart(app: ["version": .string("3.2.0"), "build": .number("512")],
                                      device: ["model": .string("iPhone16,2"), "os": .object(["name": .string("iOS"), "v": .string("18.1")])]),
                  cause: 3, meta: ["ab": .array([.bool(true), .null, .string("é\u{1}")]), "z": .number("-1.5e3")],
                  extra: ["build": .string("x"), "origin": .object(["k": .string("v")])]),
            Event(session: "ü", seq: 7, t: Timestamp(milliseconds: 0), kind: .sessionStart(app: ["version": .string("")], device: nil)),
        ]
        for event in starts {
            var writer = CanonicalWriter()
            writer.write(event)
            let line = writer.bytes
            let seqKey = Array(#""seq":\#(event.seq),"session":"#.utf8)
            let at = try #require((0...(line.count - seqKey.count)).first { line[$0..<($0 + seqKey.count)].elementsEqual(seqKey) })
            var fromLine = ScreenProjectionRun(session: event.session, firstSeq: event.seq, firstT: event.t, sessionStart: event, occurrences: [])
            fromLine.sessionStartTemplate = Array(line[..<at]).withUnsafeBytes { ScreenProjectionBlock.template(before: $0) }
            let fromEvent = ScreenProjectionRun(session: event.session, firstSeq: event.seq, firstT: event.t, sessionStart: event, occurrences: [])
            #expect(ScreenProjectionBlock.encode(commit: 1, indexOffset: 0, runs: [fromLine])
                    == ScreenProjectionBlock.encode(commit: 1, indexOffset: 0, runs: [fromEvent]), "\(String(decoding: line, as: UTF8.self))")
        }
    }
}
