/// Writes the parts of a screen-projection block (schemas/screen-projection.md
/// §2): little-endian integers, columns of values at the smallest width that
/// holds them all, blobs and string tables.
struct ProjectionColumnWriter {
    var bytes: [UInt8] = []

    mutating func integer(_ value: UInt64, bytes count: Int) {
        for i in 0..<count { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(i)))) }
    }

    /// A width byte (0, 1, 2, 4 or 8), then every value at that width.
    mutating func column(_ values: [UInt64]) {
        let largest = values.max() ?? 0
        let width = largest == 0 ? 0 : largest <= 0xFF ? 1 : largest <= 0xFFFF ? 2 : largest <= 0xFFFF_FFFF ? 4 : 8
        bytes.append(UInt8(width))
        bytes.reserveCapacity(bytes.count + width * values.count)
        for value in values { integer(value, bytes: width) }
    }

    /// A length (4 bytes), then the bytes.
    mutating func blob(_ data: [UInt8]) {
        integer(UInt64(data.count), bytes: 4)
        bytes += data
    }

    /// A count (4 bytes), a column of cumulative end offsets, a blob of the strings' bytes.
    mutating func strings(_ strings: [String]) {
        integer(UInt64(strings.count), bytes: 4)
        var ends: [UInt64] = [], all: [UInt8] = []
        for s in strings {
            all += s.utf8
            ends.append(UInt64(all.count))
        }
        column(ends)
        blob(all)
    }

    /// Zigzag: small magnitudes of either sign as small unsigned values.
    static func zigzag(_ v: Int64) -> UInt64 { UInt64(bitPattern: (v << 1) ^ (v >> 63)) }
}

/// One column of a block: `count` values of `width` bytes from `start`.
struct ProjectionColumn: Sendable {
    let start: Int
    let width: Int
    let count: Int

    /// Value `i` (0 ..< ``count``; the column's bytes were checked when it was read).
    @inline(__always) func value(_ i: Int, in bytes: [UInt8]) -> UInt64 {
        precondition(i >= 0 && i < count, "value \(i) of a column of \(count)")
        return bytes.withUnsafeBufferPointer { value(i, in: $0) }
    }

    /// Value `i`, read from the block's bytes through a pointer (no bounds checks: the column was checked).
    @inline(__always) func value(_ i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let at = UnsafeRawPointer(bytes.baseAddress!) + start + i * width
        switch width {
        case 0: return 0
        case 1: return UInt64(at.load(as: UInt8.self))
        case 2: return UInt64(UInt16(littleEndian: at.loadUnaligned(as: UInt16.self)))
        case 4: return UInt64(UInt32(littleEndian: at.loadUnaligned(as: UInt32.self)))
        default: return UInt64(littleEndian: at.loadUnaligned(as: UInt64.self))
        }
    }

    @inline(__always) func int(_ i: Int, in bytes: [UInt8]) -> Int { Int(truncatingIfNeeded: value(i, in: bytes)) }

    static func unzigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: v >> 1) ^ -Int64(bitPattern: v & 1) }
}

/// Reads the parts of a block in order, each checked against the bytes left.
struct ProjectionColumnReader {
    let bytes: [UInt8]
    var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func integer(bytes count: Int) throws(ScreenProjectionError) -> UInt64 {
        guard at + count <= bytes.count else { throw .malformed("cut short at byte \(at)") }
        var v: UInt64 = 0
        for k in 0..<count { v |= UInt64(bytes[at + k]) << (8 * UInt64(k)) }
        at += count
        return v
    }

    /// A count below `limit` (so that counts cannot ask for more than the block holds).
    mutating func count(limit: Int) throws(ScreenProjectionError) -> Int {
        let n = try integer(bytes: 4)
        guard n <= UInt64(limit) else { throw .malformed("count \(n) at byte \(at - 4) is over \(limit)") }
        return Int(n)
    }

    mutating func column(count: Int) throws(ScreenProjectionError) -> ProjectionColumn {
        let width = Int(try integer(bytes: 1))
        guard [0, 1, 2, 4, 8].contains(width) else { throw .malformed("column width \(width) at byte \(at - 1)") }
        guard width == 0 || count <= (bytes.count - at) / width else { throw .malformed("column of \(count) values at byte \(at) is cut short") }
        defer { at += width * count }
        return ProjectionColumn(start: at, width: width, count: count)
    }

    /// A blob: the range of its bytes.
    mutating func blob() throws(ScreenProjectionError) -> Range<Int> {
        let n = Int(try integer(bytes: 4))
        guard n <= bytes.count - at else { throw .malformed("blob of \(n) bytes at byte \(at - 4) is cut short") }
        defer { at += n }
        return at..<(at + n)
    }

    /// A string table.
    mutating func strings() throws(ScreenProjectionError) -> [String] {
        let n = try count(limit: bytes.count - at)
        let ends = try column(count: n)
        let all = try blob()
        var strings: [String] = []
        strings.reserveCapacity(n)
        var start = all.lowerBound
        for i in 0..<n {
            let end = all.lowerBound + ends.int(i, in: bytes)
            guard end >= start, end <= all.upperBound else { throw .malformed("string table offsets out of order") }
            strings.append(String(decoding: bytes[start..<end], as: UTF8.self))
            start = end
        }
        return strings
    }

    /// A string table passed over (its offsets checked, no strings made):
    /// its end offsets and its bytes, string `i` at
    /// ``ProjectionStringTable/range(_:in:)``.
    mutating func stringTable() throws(ScreenProjectionError) -> ProjectionStringTable {
        let n = try count(limit: bytes.count - at)
        let ends = try column(count: n)
        let all = try blob()
        try checkEnds(ends, limit: all.count, "string table")
        return ProjectionStringTable(ends: ends, blob: all)
    }

    /// Cumulative end offsets: non-decreasing, the last at most `limit`.
    func checkEnds(_ column: ProjectionColumn, limit: Int, _ what: String) throws(ScreenProjectionError) {
        let inOrder = bytes.withUnsafeBufferPointer { p in
            var previous: UInt64 = 0
            for i in 0..<column.count {
                let v = column.value(i, in: p)
                guard v >= previous, v <= UInt64(limit) else { return false }
                previous = v
            }
            return true
        }
        guard inOrder else { throw .malformed("\(what) offsets out of order") }
    }

    /// Every value below `limit`.
    func checkBelow(_ column: ProjectionColumn, _ limit: Int, _ what: String) throws(ScreenProjectionError) {
        let largest = bytes.withUnsafeBufferPointer { p in
            var largest: UInt64 = 0
            for i in 0..<column.count { largest = max(largest, column.value(i, in: p)) }
            return largest
        }
        guard column.count == 0 || largest < UInt64(limit) else { throw .malformed("\(what) \(largest) out of range") }
    }
}

/// Why a screen-projection block's bytes cannot be read.
public enum ScreenProjectionError: Error, Hashable, Sendable, CustomStringConvertible {
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let why): "screen projection block: \(why)"
        }
    }
}

/// A block's string table read in place: where each string's bytes are.
struct ProjectionStringTable: Sendable {
    let ends: ProjectionColumn
    let blob: Range<Int>

    var count: Int { ends.count }

    /// Where string `i` lies in `bytes` (the block's; offsets checked when read).
    func range(_ i: Int, in bytes: [UInt8]) -> Range<Int> {
        (blob.lowerBound + (i == 0 ? 0 : ends.int(i - 1, in: bytes)))..<(blob.lowerBound + ends.int(i, in: bytes))
    }
}
