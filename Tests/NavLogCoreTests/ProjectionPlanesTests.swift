import Testing
@testable import NavLogCore

/// The planar form of a block body, what packed blocks hold
/// (schemas/screen-projection.md §2.1).
@Suite struct ProjectionPlanesTests {
    /// `count` sessions of one, two or three rows in turn, times and seqs far
    /// enough apart that columns of width 2, 4 and 8 appear.
    static func shortRuns(_ count: Int) -> [ScreenProjectionRun] {
        let t0: Int64 = 1_795_000_000_000
        return (0..<count).map { s in
            let firstT = Timestamp(milliseconds: t0 + Int64(s) * 977)
            let firstSeq = s == 7 ? 1 << 40 : 1 + s % 5
            let start = s % 3 == 0 ? Event(session: "s-\(s)", seq: firstSeq, t: firstT,
                                          kind: .sessionStart(app: ["version": .string("3.\(s % 4)")], device: nil)) : nil
            let rows = (0...(s % 3)).map { r in
                FunnelOccurrence(seq: firstSeq + 1 + r, t: Timestamp(milliseconds: firstT.milliseconds + Int64(r * 40_000 + s % 13)),
                                 target: r == 2 ? .mark : .screen, name: "Screen/\((s + r) % 20)")
            }
            return ScreenProjectionRun(session: "s-\(s)", firstSeq: firstSeq, firstT: firstT, sessionStart: start, occurrences: rows)
        }
    }

    @Test("Sessions of 1, 2 and 3 rows, one and many: the planar form is the body's size, its columns in planes, and gives the body back")
    func roundTrip() throws {
        for count in [1, 2, 3, 5_000] {
            let runs = Self.shortRuns(count)
            let body = ScreenProjectionBlock.encode(commit: 4, indexOffset: 1 << 20, runs: runs)
            let planar = try ProjectionPlanes.planar(body)
            #expect(planar.count == body.count)
            #expect(try ProjectionPlanes.interleaved(planar) == body)
            let block = try ScreenProjectionBlock(decoding: try ProjectionPlanes.interleaved(planar))
            #expect((0..<count).map(block.run) == runs)
            // Value i of a column of width w is Σ plane[k][i] << 8k (§2.1); columns of width 0 and 1 are unchanged.
            var widths: Set<Int> = []
            for column in [block.idEnd, block.rowEnd, block.firstSeq, block.firstT, block.start, block.dseq, block.dt, block.name] {
                widths.insert(column.width)
                for i in 0..<column.count {
                    var v: UInt64 = 0
                    for k in 0..<column.width { v |= UInt64(planar[column.start + k * column.count + i]) << (8 * UInt64(k)) }
                    #expect(v == column.value(i, in: body))
                }
            }
            if count == 5_000 {
                #expect(widths.isSuperset(of: [1, 2, 4, 8]), "\(widths)")
                #expect(planar != body)
            }
        }
    }

    @Test("A planar body cut short, or with bytes after it, is refused")
    func malformed() throws {
        let body = ScreenProjectionBlock.encode(commit: 1, indexOffset: 0, runs: Self.shortRuns(40))
        let planar = try ProjectionPlanes.planar(body)
        for cut in stride(from: 0, to: planar.count, by: 5) {
            #expect(throws: ScreenProjectionError.self) { try ProjectionPlanes.interleaved(Array(planar.prefix(cut))) }
        }
        #expect(throws: ScreenProjectionError.self) { try ProjectionPlanes.interleaved(planar + [0]) }
        #expect(throws: ScreenProjectionError.self) { try ProjectionPlanes.planar(body + [0]) }
    }
}
