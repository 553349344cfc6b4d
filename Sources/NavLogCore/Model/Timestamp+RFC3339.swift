extension Timestamp {
    /// Parses strict RFC 3339 (docs/events.md): `YYYY-MM-DDTHH:MM:SS[.f{0,9}](Z|±HH:MM)`,
    /// `T`/`t` and `Z`/`z` accepted, no leap second, the fraction truncated
    /// to whole milliseconds. Returns `nil` for anything else, including an
    /// instant outside years 0000–9999 in UTC.
    public init?(rfc3339 text: String) {
        var text = text
        guard let t = text.withUTF8({ Timestamp(rfc3339Bytes: UnsafeRawBufferPointer($0)) }) else { return nil }
        self = t
    }

    /// Parses strict RFC 3339 from UTF-8 bytes; see ``init(rfc3339:)``.
    public init?(rfc3339Bytes b: UnsafeRawBufferPointer) {
        guard let ms = Self.milliseconds(rfc3339Bytes: b),
              ms >= Timestamp.minMilliseconds, ms <= Timestamp.maxMilliseconds
        else { return nil }
        self.init(milliseconds: ms)
    }

    /// Why `text`, which ``init(rfc3339:)`` refused, is not a timestamp:
    /// what is wrong with it (``problem(rfc3339:)``) and the text. Strict
    /// RFC 3339 whose instant falls outside years 0000–9999 once converted
    /// to UTC (`0000-01-01T00:00:00+01:00`) is refused for its range.
    public static func refusal(rfc3339 text: String) -> String {
        let quoted = "\"\(text.prefix(64))\""
        switch problem(rfc3339: text) {
        case .outsideYears, nil: return "\(RFC3339Problem.outsideYears): \(quoted)"
        case let problem?: return "not a strict RFC 3339 timestamp (\(problem)): \(quoted)"
        }
    }

    /// Milliseconds since the epoch of strict RFC 3339, whatever the year it falls in.
    private static func milliseconds(rfc3339Bytes b: UnsafeRawBufferPointer) -> Int64? {
        let n = b.count
        guard n >= 20 else { return nil }
        @inline(__always) func digit(_ i: Int) -> Int? {
            let c = b[i] &- 0x30
            return c < 10 ? Int(c) : nil
        }
        @inline(__always) func two(_ i: Int) -> Int? {
            guard let a = digit(i), let c = digit(i + 1) else { return nil }
            return a * 10 + c
        }
        guard let y1 = two(0), let y2 = two(2), b[4] == UInt8(ascii: "-"),
              let month = two(5), b[7] == UInt8(ascii: "-"), let day = two(8),
              b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
              let hour = two(11), b[13] == UInt8(ascii: ":"), let minute = two(14),
              b[16] == UInt8(ascii: ":"), let second = two(17)
        else { return nil }
        let year = y1 * 100 + y2
        guard month >= 1, month <= 12, day >= 1, day <= Timestamp.daysIn(month: month, year: year),
              hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var i = 19
        var millis = 0
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < n, let d = digit(i) {
                if i - start < 3 { millis = millis * 10 + d }
                i += 1
            }
            let count = i - start
            guard count >= 1, count <= 9 else { return nil }
            if count == 1 { millis *= 100 } else if count == 2 { millis *= 10 }
        }
        guard i < n else { return nil }
        var offsetMinutes = 0
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard n - i == 6, let oh = two(i + 1), b[i + 3] == UInt8(ascii: ":"), let om = two(i + 4),
                  oh <= 23, om <= 59
            else { return nil }
            offsetMinutes = (oh * 60 + om) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        default:
            return nil
        }
        guard i == n else { return nil }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        let seconds = Int64(days) * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetMinutes * 60)
        return seconds * 1000 + Int64(millis)
    }

    /// 0000-01-01T00:00:00.000Z
    static let minMilliseconds: Int64 = Int64(daysFromCivil(year: 0, month: 1, day: 1)) * 86_400_000
    /// 9999-12-31T23:59:59.999Z
    static let maxMilliseconds: Int64 = Int64(daysFromCivil(year: 10000, month: 1, day: 1)) * 86_400_000 - 1

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01.
    static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Appends `YYYY-MM-DDTHH:MM:SS.mmmZ` (24 bytes).
    public func appendRFC3339(to out: inout [UInt8]) {
        var days = milliseconds / 86_400_000
        var rem = milliseconds % 86_400_000
        if rem < 0 { rem += 86_400_000; days -= 1 }
        let (y, mo, d) = Timestamp.civilFromDays(Int(days))
        let ms = Int(rem % 1000)
        let secs = Int(rem / 1000)
        let h = secs / 3600, mi = (secs / 60) % 60, s = secs % 60
        @inline(__always) func two(_ v: Int) {
            out.append(UInt8(ascii: "0") &+ UInt8(v / 10))
            out.append(UInt8(ascii: "0") &+ UInt8(v % 10))
        }
        two(y / 100); two(y % 100)
        out.append(UInt8(ascii: "-")); two(mo)
        out.append(UInt8(ascii: "-")); two(d)
        out.append(UInt8(ascii: "T")); two(h)
        out.append(UInt8(ascii: ":")); two(mi)
        out.append(UInt8(ascii: ":")); two(s)
        out.append(UInt8(ascii: "."))
        out.append(UInt8(ascii: "0") &+ UInt8(ms / 100))
        two(ms % 100)
        out.append(UInt8(ascii: "Z"))
    }

    /// The UTC millisecond form: `2026-11-20T10:00:05.120Z`.
    public var rfc3339: String {
        var out: [UInt8] = []
        out.reserveCapacity(24)
        appendRFC3339(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension Timestamp: CustomStringConvertible {
    public var description: String { rfc3339 }
}
