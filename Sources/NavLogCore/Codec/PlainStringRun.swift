/// The run of plain bytes at the start of a JSON string's contents: bytes
/// that need no second look (printable ASCII other than `"` and `\`),
/// passed eight at a time. Its word test (``specialBytes(in:controlBytes:nonASCII:)``)
/// also serves the writer's "needs escaping" and the session skim's search
/// for a quote or backslash.
enum PlainStringRun {
    /// The index of the first byte at or after `start` that is a quote, a
    /// backslash, a control byte or a non-ASCII byte — or, when the last
    /// fewer than eight bytes are reached first, of the first of them (the
    /// caller looks at those one by one).
    @inline(__always)
    static func end(in base: UnsafeRawPointer, count n: Int, from start: Int) -> Int {
        var i = start
        while i + 8 <= n {
            let v = base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let special = specialBytes(in: v, controlBytes: true, nonASCII: true)
            if special != 0 { return i + special.trailingZeroBitCount >> 3 }
            i += 8
        }
        return i
    }

    /// The high bit of each byte of `v` (eight bytes, little-endian) that is
    /// a quote or a backslash — and, as asked, a control byte (below 0x20)
    /// or a non-ASCII byte (0x80 and up). Exact for the lowest flagged byte
    /// (borrows only run upwards), so right for "is there one" and "where is
    /// the first"; the flags are constants at every use, and fold away.
    @inline(__always)
    static func specialBytes(in v: UInt64, controlBytes: Bool, nonASCII: Bool) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = v ^ (ones &* 0x22)
        let slash = v ^ (ones &* 0x5C)
        var flags = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash)
        if controlBytes {
            // Below 0x20; a byte of 0x80 and up passes this test too, so it
            // is masked out unless it is asked for.
            let below = v &- ones &* 0x20
            flags |= nonASCII ? below | v : below & ~v
        } else if nonASCII {
            flags |= v
        }
        return flags & high
    }
}
