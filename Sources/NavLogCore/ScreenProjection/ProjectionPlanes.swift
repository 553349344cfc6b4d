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
                for column in columns where column.width >= 2 {
                    let (source, target) = (from.baseAddress! + column.start, to.baseAddress! + column.start)
                    // A width of 2, 4 or 8 as a constant in each copy of the loops.
                    switch (column.width, toPlanes) {
                    case (2, true): split(column.count, source, target, width: 2)
                    case (4, true): split(column.count, source, target, width: 4)
                    case (_, true): split(column.count, source, target, width: 8)
                    case (2, false): join(column.count, source, target, width: 2)
                    case (4, false): join(column.count, source, target, width: 4)
                    case (_, false): join(column.count, source, target, width: 8)
                    }
                }
            }
        }
        return out
    }

    /// `n` values of `width` bytes (2, 4 or 8) at `values` as `width` planes
    /// at `planes`: one load a value, one byte to each plane.
    @inline(__always)
    private static func split(_ n: Int, _ values: UnsafeRawPointer, _ planes: UnsafeMutableRawPointer, width: Int) {
        let plane = planes.assumingMemoryBound(to: UInt8.self)
        for i in 0..<n {
            var v = width == 2 ? UInt64(UInt16(littleEndian: values.loadUnaligned(fromByteOffset: 2 &* i, as: UInt16.self)))
                : width == 4 ? UInt64(UInt32(littleEndian: values.loadUnaligned(fromByteOffset: 4 &* i, as: UInt32.self)))
                : UInt64(littleEndian: values.loadUnaligned(fromByteOffset: 8 &* i, as: UInt64.self))
            for k in 0..<width {
                plane[k &* n &+ i] = UInt8(truncatingIfNeeded: v)
                v &>>= 8
            }
        }
    }

    /// The reverse of ``split(_:_:_:width:)``: a byte from each plane, one store a value.
    @inline(__always)
    private static func join(_ n: Int, _ planes: UnsafeRawPointer, _ values: UnsafeMutableRawPointer, width: Int) {
        let plane = planes.assumingMemoryBound(to: UInt8.self)
        for i in 0..<n {
            var v: UInt64 = 0
            for k in 0..<width { v |= UInt64(plane[k &* n &+ i]) &<< (8 &* k) }
            switch width {
            case 2: values.storeBytes(of: UInt16(truncatingIfNeeded: v).littleEndian, toByteOffset: 2 &* i, as: UInt16.self)
            case 4: values.storeBytes(of: UInt32(truncatingIfNeeded: v).littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
            default: values.storeBytes(of: v.littleEndian, toByteOffset: 8 &* i, as: UInt64.self)
            }
        }
    }
}
