/// Why a text is not a strict RFC 3339 timestamp (docs/events.md): the first
/// thing wrong with it, as ``Timestamp/problem(rfc3339:)`` finds it. Its
/// ``description`` is the one text of each reason.
public enum RFC3339Problem: Hashable, Sendable, CustomStringConvertible {
    /// Not the shape `YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)`: the character at
    /// `offset` (0-based; `found` is `nil` at the end of the text) is not `expected`.
    case form(offset: Int, found: Character?, expected: String)
    /// A month outside 01–12.
    case month(Int)
    /// A day outside 01 to the days of its month.
    case day(Int, daysInMonth: Int)
    /// An hour outside 00–23.
    case hour(Int)
    /// A minute outside 00–59.
    case minute(Int)
    /// Second 60: leap seconds are not allowed (docs/events.md).
    case leapSecond
    /// A second outside 00–59 (other than 60).
    case second(Int)
    /// A `.` with no fraction digits, or more than nine.
    case fractionDigits(Int)
    /// An offset whose hours are over 23 or minutes over 59.
    case offset(String)
    /// Well-formed, but outside years 0000–9999 once converted to UTC.
    case outsideYears

    public var description: String {
        switch self {
        case .form(let offset, let found?, let expected): "character \(offset + 1) is '\(found)', expected \(expected)"
        case .form(let offset, nil, let expected): "ends after \(offset) characters, expected \(expected)"
        case .month(let m): "month \(m) is not 01–12"
        case .day(let d, let days): d == 0 ? "day 00" : "day \(d) in a month of \(days) days"
        case .hour(let h): "hour \(h) is not 00–23"
        case .minute(let m): "minute \(m) is not 00–59"
        case .leapSecond: "second 60: leap seconds are not allowed"
        case .second(let s): "second \(s) is not 00–59"
        case .fractionDigits(let n): n == 0 ? "'.' without fraction digits" : "\(n) fraction digits (at most 9)"
        case .offset(let text): "offset \(text) is not -23:59 to +23:59"
        case .outsideYears: "outside years 0000–9999 once converted to UTC"
        }
    }
}

extension Timestamp {
    /// Why `text` is not a strict RFC 3339 timestamp, or `nil` when
    /// ``init(rfc3339:)`` accepts it. A slow path, for error messages only:
    /// the parser itself says only yes or no.
    public static func problem(rfc3339 text: String) -> RFC3339Problem? {
        let chars = Array(text)
        func form(_ i: Int, _ expected: String) -> RFC3339Problem {
            .form(offset: i, found: i < chars.count ? chars[i] : nil, expected: expected)
        }
        func isDigit(_ i: Int) -> Bool { i < chars.count && chars[i].isASCII && chars[i].isNumber }
        func number(_ i: Int, _ n: Int) -> Int { Int(String(chars[i..<i + n]))! }
        for (i, t) in "0000-00-00T00:00:00".enumerated() {
            switch t {
            case "0": if !isDigit(i) { return form(i, "a digit") }
            case "T": if i >= chars.count || (chars[i] != "T" && chars[i] != "t") { return form(i, "'T'") }
            default: if i >= chars.count || chars[i] != t { return form(i, "'\(t)'") }
            }
        }
        let year = number(0, 4), month = number(5, 2), day = number(8, 2)
        if month < 1 || month > 12 { return .month(month) }
        let days = daysIn(month: month, year: year)
        if day < 1 || day > days { return .day(day, daysInMonth: days) }
        if number(11, 2) > 23 { return .hour(number(11, 2)) }
        if number(14, 2) > 59 { return .minute(number(14, 2)) }
        let second = number(17, 2)
        if second == 60 { return .leapSecond }
        if second > 59 { return .second(second) }
        var i = 19
        if i < chars.count, chars[i] == "." {
            i += 1
            let start = i
            while isDigit(i) { i += 1 }
            if i - start == 0 || i - start > 9 { return .fractionDigits(i - start) }
        }
        guard i < chars.count else { return form(i, "'Z' or an offset ±HH:MM") }
        switch chars[i] {
        case "Z", "z":
            i += 1
        case "+", "-":
            for (k, t) in "00:00".enumerated() {
                let j = i + 1 + k
                if t == "0" ? !isDigit(j) : (j >= chars.count || chars[j] != ":") { return form(j, t == "0" ? "a digit" : "':'") }
            }
            if number(i + 1, 2) > 23 || number(i + 4, 2) > 59 { return .offset(String(chars[i..<i + 6])) }
            i += 6
        default:
            return form(i, "'Z' or an offset ±HH:MM")
        }
        if i < chars.count { return form(i, "the end") }
        return Timestamp(rfc3339: text) == nil ? .outsideYears : nil
    }
}
