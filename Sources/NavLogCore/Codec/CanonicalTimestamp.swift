/// Fast paths for navlog's canonical timestamp form `YYYY-MM-DDTHH:MM:SS.mmmZ`
/// (24 bytes), the form of every stored line. Consecutive events almost
/// always fall on the same day, so the date part is cached: parsing then
/// compares 10 bytes and converts only the time of day, and writing copies
/// the 11-byte day prefix.
///
/// Both give exactly what the general code gives (``Timestamp/init(rfc3339Bytes:)``,
/// ``Timestamp/appendRFC3339(to:)``); anything else falls back to it.
struct CanonicalTimestampCache: Sendable {
    /// The day (since 1970-01-01) of ``prefix``, or `Int64.min`.
    private var day = Int64.min
    /// `YYYY-MM-DDT` of ``day``, in the low 11 bytes (little-endian order).
    private var prefix: (UInt64, UInt64) = (0, 0)

    /// The first 10 bytes of the last date parsed, and its day.
    private var parsedDate: (UInt64, UInt16) = (0, 0)
    private var parsedDay: Int64 = Int64.min

    /// Parses the canonical 24-byte form; `nil` for anything else (the
    /// caller then uses the general parser, which also gives the reason).
    ///
    /// The time of day is read as two words: `HH:MM:SS` and `.mmm`, each
    /// byte checked for being a digit or its separator at once.
    mutating func parse(_ b: UnsafeRawBufferPointer) -> Timestamp? {
        guard b.count == 24, let base = b.baseAddress else { return nil }
        // Bytes 10 to 17 are `THH:MM:S`, 16 to 23 `:SS.mmmZ` (little-endian: byte k is bits 8k...).
        let clock = base.loadUnaligned(fromByteOffset: 10, as: UInt64.self)
        let fraction = base.loadUnaligned(fromByteOffset: 16, as: UInt64.self)
        guard Self.isDigits(clock, mask: Self.clockDigits), clock & ~Self.clockDigits == Self.clockMarks,
              Self.isDigits(fraction, mask: Self.fractionDigits), fraction & ~Self.fractionDigits == Self.fractionMarks
        else { return nil }
        @inline(__always) func digit(_ word: UInt64, _ k: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: word >> (8 * k)) & 0x0F }
        let hour = digit(clock, 1) * 10 + digit(clock, 2)
        let minute = digit(clock, 4) * 10 + digit(clock, 5)
        let second = digit(clock, 7) * 10 + digit(fraction, 2)
        let milli = digit(fraction, 4) * 100 + digit(fraction, 5) * 10 + digit(fraction, 6)
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        let date = (base.loadUnaligned(as: UInt64.self), base.loadUnaligned(fromByteOffset: 8, as: UInt16.self))
        let days: Int64
        if date == parsedDate && parsedDay != Int64.min {
            days = parsedDay
        } else {
            let p = base.assumingMemoryBound(to: UInt8.self)
            @inline(__always) func d(_ i: Int) -> UInt32 { UInt32(p[i] &- 0x30) }
            guard p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-") else { return nil }
            let y1 = d(0), y2 = d(1), y3 = d(2), y4 = d(3), m1 = d(5), m2 = d(6), dd1 = d(8), dd2 = d(9)
            guard y1 < 10, y2 < 10, y3 < 10, y4 < 10, m1 < 10, m2 < 10, dd1 < 10, dd2 < 10 else { return nil }
            let year = Int(y1 * 1000 + y2 * 100 + y3 * 10 + y4), month = Int(m1 * 10 + m2), dayOfMonth = Int(dd1 * 10 + dd2)
            guard month >= 1, month <= 12, dayOfMonth >= 1, dayOfMonth <= Timestamp.daysIn(month: month, year: year)
            else { return nil }
            days = Int64(Timestamp.daysFromCivil(year: year, month: month, day: dayOfMonth))
            parsedDate = date
            parsedDay = days
        }
        let ms = (days * 86_400 + Int64(hour * 3600 + minute * 60 + second)) * 1000 + Int64(milli)
        guard ms >= Timestamp.minMilliseconds, ms <= Timestamp.maxMilliseconds else { return nil }
        return Timestamp(milliseconds: ms)
    }

    /// The digit bytes of `THH:MM:S` and their other bytes, `T`, `:`, `:`.
    private static let clockDigits: UInt64 = 0xFF00_FFFF_00FF_FF00
    private static let clockMarks: UInt64 = 0x003A_0000_3A00_0054
    /// The digit bytes of `:SS.mmmZ` and their other bytes, `:`, `.`, `Z`.
    private static let fractionDigits: UInt64 = 0x00FF_FFFF_00FF_FF00
    private static let fractionMarks: UInt64 = 0x5A00_0000_2E00_003A

    /// Whether every byte of `word` in `mask` is an ASCII digit: its high
    /// nibble is 3, and adding 6 to it does not carry into it.
    @inline(__always)
    private static func isDigits(_ word: UInt64, mask: UInt64) -> Bool {
        let highNibbles = mask & 0xF0F0_F0F0_F0F0_F0F0
        return word & highNibbles == 0x3030_3030_3030_3030 & mask
            && ((word & mask & 0x0F0F_0F0F_0F0F_0F0F) &+ (0x0606_0606_0606_0606 & mask)) & highNibbles == 0
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ`, as ``Timestamp/appendRFC3339(to:)`` does.
    mutating func append(_ t: Timestamp, to out: inout [UInt8]) {
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &text) { write(t, to: $0.baseAddress!) }
        withUnsafeBytes(of: &text) { out.append(contentsOf: $0[0..<24]) }
    }

    /// Writes the 24 bytes of `YYYY-MM-DDTHH:MM:SS.mmmZ` at `out`.
    mutating func write(_ t: Timestamp, to out: UnsafeMutableRawPointer) {
        var days = t.milliseconds / 86_400_000
        var rem = t.milliseconds % 86_400_000
        if rem < 0 { rem += 86_400_000; days -= 1 }
        if days != day {
            // The day's `YYYY-MM-DDT`, made in place (sessions read in key order change day often).
            let (y, mo, d) = Timestamp.civilFromDays(Int(days))
            var words: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &words) { buf in
                @inline(__always) func two(_ v: Int, _ at: Int) {
                    buf[at] = UInt8(ascii: "0") &+ UInt8(v / 10)
                    buf[at + 1] = UInt8(ascii: "0") &+ UInt8(v % 10)
                }
                two(y / 100, 0); two(y % 100, 2); buf[4] = UInt8(ascii: "-")
                two(mo, 5); buf[7] = UInt8(ascii: "-"); two(d, 8); buf[10] = UInt8(ascii: "T")
            }
            prefix = words
            day = days
        }
        let r = UInt64(rem)
        let ms = r % 1000, secs = r / 1000
        let h = secs / 3600, mi = (secs / 60) % 60, s = secs % 60
        // Two ASCII digits as a 16-bit little-endian word.
        @inline(__always) func two(_ v: UInt64) -> UInt64 { (0x30 + v / 10) | (0x30 + v % 10) << 8 }
        // `HH:MM:SS` (bytes 11 to 18), `.mmm` (19 to 22), `Z` (23), stored as words.
        let clock = two(h) | 0x3A << 16 | two(mi) << 24 | 0x3A << 40 | two(s) << 48
        let fraction = 0x2E | (0x30 + ms / 100) << 8 | two(ms % 100) << 16
        withUnsafeBytes(of: prefix) { date in
            out.storeBytes(of: date.load(as: UInt64.self), as: UInt64.self)
            out.storeBytes(of: date.load(fromByteOffset: 8, as: UInt16.self), toByteOffset: 8, as: UInt16.self)
            out.storeBytes(of: date.load(fromByteOffset: 10, as: UInt8.self), toByteOffset: 10, as: UInt8.self)
        }
        out.storeBytes(of: clock.littleEndian, toByteOffset: 11, as: UInt64.self)
        out.storeBytes(of: UInt32(truncatingIfNeeded: fraction).littleEndian, toByteOffset: 19, as: UInt32.self)
        out.storeBytes(of: UInt8(ascii: "Z"), toByteOffset: 23, as: UInt8.self)
    }
}
