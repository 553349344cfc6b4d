/// `export screens` CSV rows read from a screen projection's columns: each
/// run's rows made in place in one buffer and appended at once, from the
/// session's id, the block's names, scenes and kinds each made a CSV field
/// once, and the seq and time written by hand. The same bytes as
/// ``ScreenRows/row(_:_:_:_:_:_:to:)`` makes from Strings.
extension ScreenRows {
    /// The most bytes of a row besides its id, scene, name and kind: seq (≤ 20), t (24), commas, newline.
    private static let rowOverhead = 56

    mutating func writeCSV(projected session: ProjectedSession, to out: inout [UInt8]) {
        guard let first = session.runs.first else { return }
        let blocks = session.projection.blocks
        fields.use(session.projection)
        // The buffer and the time cache are moved out of self while rows are made.
        var buffer = rowBytes, times = self.times
        rowBytes = []
        defer { (rowBytes, self.times) = (buffer, times) }
        // The first session.start's row goes where its event is: before the rows of its seq and after.
        let withMarks = self.withMarks
        var startSeq = Int.max
        if withMarks, let event = session.sessionStart { (pendingStart, startSeq) = (event, event.seq) }
        let firstBlock = blocks[Int(first.block)]
        Self.withIDField(firstBlock, Int(first.session)) { id in
            if withMarks {
                let table = fields.table(Int(first.block), firstBlock)
                Self.reserve(id.count + table.longestKind + Self.rowOverhead, in: &buffer)
                let n = buffer.withUnsafeMutableBufferPointer { row in
                    table.withFields { fields in
                        Self.put(row.baseAddress!, id: id, seq: firstBlock.firstSeq(Int(first.session)),
                                 t: firstBlock.firstMilliseconds(Int(first.session)), times: &times,
                                 scene: nil, name: nil, kind: fields.sessionKind)
                    }
                }
                buffer.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<n])) }
            }
            for run in session.runs {
                let b = Int(run.block), i = Int(run.session), block = blocks[b]
                let count = block.rows(i).count
                guard count > 0 else { continue }
                let table = fields.table(b, block)
                Self.reserve(count * (id.count + table.longestScene + table.longestName + table.longestKind + Self.rowOverhead),
                             in: &buffer)
                let n = buffer.withUnsafeMutableBufferPointer { row in
                    var n = 0
                    table.withFields { fields in
                        block.forEachRow(of: i) { seq, t, kind, name, scene in
                            guard withMarks || kind == 0 else { return }
                            if seq >= startSeq {
                                out.append(contentsOf: UnsafeBufferPointer(rebasing: row[..<n]))
                                n = 0
                                writePendingStart(to: &out)
                                startSeq = Int.max
                            }
                            n += Self.put(row.baseAddress! + n, id: id, seq: seq, t: t, times: &times,
                                          scene: fields.scene(scene), name: fields.name(name),
                                          kind: withMarks ? fields.kind(kind) : nil)
                        }
                    }
                    return n
                }
                buffer.withUnsafeBufferPointer { out.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<n])) }
            }
        }
        if startSeq != Int.max { writePendingStart(to: &out) }
    }

    /// The `start` row of the session's first `session.start`, kept for it until its place.
    private mutating func writePendingStart(to out: inout [UInt8]) {
        guard let event = pendingStart else { return }
        pendingStart = nil
        startRow(event, to: &out)
    }

    /// Makes `buffer` at least `size` bytes long (it is written through a pointer).
    private static func reserve(_ size: Int, in buffer: inout [UInt8]) {
        if buffer.count < size { buffer = Array(repeating: 0, count: max(size, 2 * buffer.count)) }
    }

    /// Calls `body` with session `i`'s id as a CSV field: its bytes in the
    /// block as they are, or quoted when they must be.
    @inline(__always)
    private static func withIDField<R>(_ block: ScreenProjectionBlock, _ i: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        block.withSessionID(i) { id in
            guard CSVWriter.needsQuotes(id) else { return body(id) }
            var quoted: [UInt8] = []
            CSVWriter.append(field: id, to: &quoted)
            return quoted.withUnsafeBufferPointer(body)
        }
    }

    /// Writes one row at `p`: `id,seq,t,scene,name` and `,kind` when given;
    /// an absent scene or name is an empty field. Returns its length.
    @inline(__always)
    private static func put(_ p: UnsafeMutablePointer<UInt8>, id: UnsafeBufferPointer<UInt8>, seq: Int, t: Int64,
                            times: inout CanonicalTimestampCache, scene: UnsafeBufferPointer<UInt8>?,
                            name: UnsafeBufferPointer<UInt8>?, kind: UnsafeBufferPointer<UInt8>?) -> Int {
        var n = 0
        @inline(__always) func put(_ part: UnsafeBufferPointer<UInt8>) {
            if let base = part.baseAddress { (p + n).update(from: base, count: part.count) }
            n += part.count
        }
        @inline(__always) func comma() {
            p[n] = 0x2C
            n += 1
        }
        put(id)
        comma()
        // The seq's digits, from the last.
        var digits = 1, rest = seq.magnitude
        while rest >= 10 { rest /= 10; digits += 1 }
        if seq < 0 { p[n] = UInt8(ascii: "-"); n += 1 }
        rest = seq.magnitude
        for k in stride(from: n + digits - 1, through: n, by: -1) {
            p[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        n += digits
        comma()
        times.write(Timestamp(milliseconds: t), to: UnsafeMutableRawPointer(p + n))
        n += 24
        comma()
        if let scene { put(scene) }
        comma()
        if let name { put(name) }
        if let kind { put(kind) }
        p[n] = 0x0A
        return n + 1
    }
}

/// The names and scenes of the screen-projection blocks being read, and
/// the kinds, as CSV fields: a table for each block, made on its first use.
struct ProjectionCSVFields {
    private var owner: ScreenProjectionBlocks?
    private var tables: [CSVFieldTable?] = []

    /// Forgets the tables when `projection` is not the blocks they are of.
    mutating func use(_ projection: ScreenProjectionBlocks) {
        guard owner !== projection else { return }
        owner = projection
        tables = Array(repeating: nil, count: projection.blocks.count)
    }

    /// The table of block `b`.
    mutating func table(_ b: Int, _ block: ScreenProjectionBlock) -> CSVFieldTable {
        if let table = tables[b] { return table }
        let table = CSVFieldTable(block)
        tables[b] = table
        return table
    }
}

/// One block's fields in one byte array: its names, its scenes, then the
/// kind column's texts (each with its leading comma) and `session`'s.
final class CSVFieldTable: Sendable {
    private let bytes: [UInt8]
    /// Field k is `bytes[ends[k − 1] ..< ends[k]]` (from 0 for the first).
    private let ends: [Int]
    private let names: Int, scenes: Int
    let longestName: Int, longestScene: Int, longestKind: Int

    init(_ block: ScreenProjectionBlock) {
        var bytes: [UInt8] = [], ends: [Int] = []
        var longest = (name: 0, scene: 0, kind: 0)
        for var text in block.names {
            let before = bytes.count
            text.withUTF8 { CSVWriter.append(field: $0, to: &bytes) }
            ends.append(bytes.count)
            longest.name = max(longest.name, bytes.count - before)
        }
        for var text in block.sceneNames {
            let before = bytes.count
            text.withUTF8 { CSVWriter.append(field: $0, to: &bytes) }
            ends.append(bytes.count)
            longest.scene = max(longest.scene, bytes.count - before)
        }
        for kind in ScreenProjectionBlock.kinds.map(\.rawValue) + [ScreenRows.sessionKind] {
            bytes += ("," + kind).utf8
            ends.append(bytes.count)
            longest.kind = max(longest.kind, kind.utf8.count + 1)
        }
        (self.bytes, self.ends, names, scenes) = (bytes, ends, block.names.count, block.sceneNames.count)
        (longestName, longestScene, longestKind) = longest
    }

    /// Calls `body` with the fields as pointers into the table.
    @inline(__always)
    func withFields<R>(_ body: (Fields) -> R) -> R {
        bytes.withUnsafeBufferPointer { bytes in
            ends.withUnsafeBufferPointer { ends in body(Fields(bytes: bytes, ends: ends, names: names, scenes: scenes)) }
        }
    }

    /// The fields of a table, read through pointers (indexes checked when the block was decoded).
    struct Fields {
        let bytes: UnsafeBufferPointer<UInt8>
        let ends: UnsafeBufferPointer<Int>
        let names: Int, scenes: Int

        @inline(__always) func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
            let start = k == 0 ? 0 : ends[k - 1]
            return UnsafeBufferPointer(start: bytes.baseAddress.map { $0 + start }, count: ends[k] - start)
        }

        @inline(__always) func name(_ i: Int) -> UnsafeBufferPointer<UInt8> { field(i) }
        @inline(__always) func scene(_ i: Int) -> UnsafeBufferPointer<UInt8> { field(names + i) }
        /// `,screen`, `,mark` or `,url` by kind index (``ScreenProjectionBlock/kinds``).
        @inline(__always) func kind(_ i: Int) -> UnsafeBufferPointer<UInt8> { field(names + scenes + i) }
        var sessionKind: UnsafeBufferPointer<UInt8> { field(names + scenes + ScreenProjectionBlock.kinds.count) }
    }
}
