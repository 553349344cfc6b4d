import NavLogCore
import Testing

/// `Timestamp.problem(rfc3339:)`: the reason a timestamp is refused, and
/// refused exactly when the parser refuses it.
@Suite struct RFC3339ProblemTests {
    @Test func eachReasonIsNamed() {
        let cases: [(String, RFC3339Problem)] = [
            ("2026-13-01T00:00:00Z", .month(13)),
            ("2026-00-01T00:00:00Z", .month(0)),
            ("2026-04-31T00:00:00Z", .day(31, daysInMonth: 30)),
            ("2026-02-29T00:00:00Z", .day(29, daysInMonth: 28)),
            ("2026-01-00T00:00:00Z", .day(0, daysInMonth: 31)),
            ("2026-01-01T24:00:00Z", .hour(24)),
            ("2026-01-01T00:60:00Z", .minute(60)),
            ("2026-12-31T23:59:60Z", .leapSecond),
            ("2026-01-01T00:00:61Z", .second(61)),
            ("2026-01-01T00:00:00.Z", .fractionDigits(0)),
            ("2026-01-01T00:00:00.1234567890Z", .fractionDigits(10)),
            ("2026-01-01T00:00:00+24:00", .offset("+24:00")),
            ("2026-01-01T00:00:00-01:60", .offset("-01:60")),
            ("2026-01-01 00:00:00Z", .form(offset: 10, found: " ", expected: "'T'")),
            ("2026-01-01T00:00:00", .form(offset: 19, found: nil, expected: "'Z' or an offset ±HH:MM")),
            ("2026-01-01T00:00:00Zx", .form(offset: 20, found: "x", expected: "the end")),
            ("2026-01-01T00:00:00+0100", .form(offset: 22, found: "0", expected: "':'")),
            ("yesterday", .form(offset: 0, found: "y", expected: "a digit")),
            ("0000-01-01T00:00:00+01:00", .outsideYears),
        ]
        for (text, problem) in cases {
            #expect(Timestamp(rfc3339: text) == nil, "\(text)")
            #expect(Timestamp.problem(rfc3339: text) == problem, "\(text)")
        }
        #expect(RFC3339Problem.day(31, daysInMonth: 30).description == "day 31 in a month of 30 days")
        #expect(RFC3339Problem.form(offset: 19, found: nil, expected: "'Z'").description == "ends after 19 characters, expected 'Z'")
    }

    /// Every one-character edit of a few valid timestamps: a problem exactly
    /// when the parser (whose fast path is unchanged) refuses the text, and
    /// a cause of its own (none of these edits leaves years 0000–9999).
    @Test func aProblemExactlyWhenTheParserRefuses() {
        let valid = ["2026-11-20T10:00:05.120Z", "2024-02-29T23:59:59+14:00", "1999-12-31t00:00:00.123456789z", "2026-01-01T00:00:00-00:30"]
        let replacements: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "-", ":", "T", "Z", "+", ".", " ", "x"]
        var checked = 0
        for text in valid {
            #expect(Timestamp.problem(rfc3339: text) == nil)
            let chars = Array(text)
            for i in chars.indices {
                var variants: [String] = [String(chars[..<i]) + String(chars[(i + 1)...])]  // deleted
                for r in replacements {
                    var c = chars
                    c[i] = r
                    variants.append(String(c))
                    variants.append(String(chars[..<i]) + String(r) + String(chars[i...]))  // inserted
                }
                for variant in variants {
                    let problem = Timestamp.problem(rfc3339: variant)
                    #expect((Timestamp(rfc3339: variant) == nil) == (problem != nil), "\(variant)")
                    // One edit of these cannot leave years 0000–9999: a refusal names its cause.
                    #expect(problem != .outsideYears, "\(variant)")
                    checked += 1
                }
            }
        }
        #expect(checked > 2_000)
    }
}
