/// The run of plain bytes at the start of a JSON string's contents: bytes
/// that need no second look (printable ASCII other than `"` and `\`),
/// passed eight at a time.
enum PlainStringRun {
    /// The index of the first byte at or after `start` that is a quote, a
    /// backslash, a control byte or a non-ASCII byte — or, when the last
    /// fewer than eight bytes are reached first, of the first of them (the
    /// caller looks at those one by one).
    @inline(__always)
    static func end(in base: UnsafeRawPointer, count n: Int, from start: Int) -> Int {
        var i = start
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        while i + 8 <= n {
            let v = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let quote = v ^ (ones &* 0x22)
            let slash = v ^ (ones &* 0x5C)
            let special = (((quote &- ones) & ~quote) | ((slash &- ones) & ~slash) | (v &- ones &* 0x20) | v) & high
            // The lowest flagged byte is exact (borrows only run upwards).
            if special != 0 { return i + special.trailingZeroBitCount >> 3 }
            i += 8
        }
        return i
    }
}
