/// The planar form of a screen-projection block body, what a packed block
/// holds (schemas/screen-projection.md §2.1): the body's parts in place, each
/// column of width w ≥ 2 as w byte planes (the values' lowest bytes, then
/// their second bytes, …), so that the high bytes, mostly zero or repeated,
/// lie side by side where LZ4 finds them.
///
/// ```swift
/// let planar = try ProjectionPlanes.planar(body)       // to store, before LZ4
/// let again = try ProjectionPlanes.interleaved(planar) // == body
/// ```
///
/// - Complexity: O(n) in the body's bytes, one copy.
public enum ProjectionPlanes {
    /// `body` (as ``ScreenProjectionBlock/encode(commit:indexOffset:runs:)``
    /// writes it) with its columns as byte planes; throws when its parts do not fit its length.
    public static func planar(_ body: [UInt8]) throws(ScreenProjectionError) -> [UInt8] {
        try transposed(body, toPlanes: true)
    }

    /// The body back from its planar form; throws when its parts do not fit its length.
    public static func interleaved(_ planar: [UInt8]) throws(ScreenProjectionError) -> [UInt8] {
        try transposed(planar, toPlanes: false)
    }

    /// Walks the parts of a body in the order of its grammar (§2) — the
    /// fixed fields, three string tables, seven session columns, the ids, five
    /// row columns — and turns each column of width ≥ 2 over. Widths and
    /// counts are the same in both forms, so the walk reads either.
    private static func transposed(_ bytes: [UInt8], toPlanes: Bool) throws(ScreenProjectionError) -> [UInt8] {
        var r = ProjectionColumnReader(bytes)
        var columns: [ProjectionColumn] = []
        _ = try r.integer(bytes: 24)
        let sessions = try r.count(limit: bytes.count)
        let rows = try r.count(limit: bytes.count)
        for _ in 0..<3 {
            columns.append(try r.column(count: try r.count(limit: bytes.count - r.at)))
            _ = try r.blob()
        }
        for _ in 0..<7 { columns.append(try r.column(count: sessions)) }
        _ = try r.blob()
        for _ in 0..<5 { columns.append(try r.column(count: rows)) }
        guard r.at == bytes.count else { throw .malformed("\(bytes.count - r.at) bytes after the last column") }
        var out = bytes
        bytes.withUnsafeBytes { from in
            out.withUnsafeMutableBytes { to in
                for column in columns {
                    let (source, target) = (from.baseAddress! + column.start, to.baseAddress! + column.start)
                    switch column.width {
                    case 2: turn(UInt16.self, column.count, source, target, toPlanes)
                    case 4: turn(UInt32.self, column.count, source, target, toPlanes)
                    case 8: turn(UInt64.self, column.count, source, target, toPlanes)
                    default: break
                    }
                }
            }
        }
        return out
    }

    /// Turns `n` values of `T`'s width into planes (`toPlanes`) or back, a
    /// value at a time: one load and `T`'s width in stores, or the reverse.
    @inline(__always)
    private static func turn<T: FixedWidthInteger & UnsignedInteger>(_: T.Type, _ n: Int, _ source: UnsafeRawPointer,
                                                                    _ target: UnsafeMutableRawPointer, _ toPlanes: Bool) {
        let w = MemoryLayout<T>.size
        if toPlanes {
            let planes = target.assumingMemoryBound(to: UInt8.self)
            for i in 0..<n {
                let v = T(littleEndian: source.loadUnaligned(fromByteOffset: i * w, as: T.self))
                for k in 0..<w { planes[k * n + i] = UInt8(truncatingIfNeeded: v >> (8 * k)) }
            }
        } else {
            let planes = source.assumingMemoryBound(to: UInt8.self)
            for i in 0..<n {
                var v: T = 0
                for k in 0..<w { v |= T(planes[k * n + i]) << (8 * k) }
                target.storeBytes(of: v.littleEndian, toByteOffset: i * w, as: T.self)
            }
        }
    }
}
