/// A funnel's `--within` duration (docs/analytics.md): parts such as `90s`,
/// `1h30m`, `1.5s`, `250ms`, `2d`, each a decimal number and a unit among
/// `ms s m h d`, summed and truncated to whole milliseconds.
///
/// ```swift
/// FunnelWindow(parsing: "1h30m")?.milliseconds   // 5_400_000
/// FunnelWindow(parsing: "1.5s")?.milliseconds    // 1_500
/// ```
public struct FunnelWindow: Hashable, Sendable, CustomStringConvertible {
    /// The window in milliseconds (≥ 0).
    public var milliseconds: Int64
    /// The text as written (or the milliseconds when made from a number).
    public var description: String

    public init(milliseconds: Int64) {
        self.milliseconds = milliseconds
        description = "\(milliseconds)ms"
    }

    /// Parses `90s`, `1h30m`, `1.5s`; `nil` for anything else (no sign, no
    /// spaces, at least one part, a unit on every part). Fractions are exact
    /// to the nanosecond; the sum is truncated to whole milliseconds.
    public init?(parsing text: String) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        var i = 0
        var totalNanos: Int64 = 0
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        while i < bytes.count {
            var whole: Int64 = 0, fraction: Int64 = 0, fractionScale: Int64 = 1
            var digits = 0
            while i < bytes.count, isDigit(bytes[i]) {
                let (w, o1) = whole.multipliedReportingOverflow(by: 10)
                let (w2, o2) = w.addingReportingOverflow(Int64(bytes[i] - 0x30))
                guard !o1, !o2 else { return nil }
                whole = w2
                digits += 1
                i += 1
            }
            if i < bytes.count, bytes[i] == 0x2E {
                i += 1
                while i < bytes.count, isDigit(bytes[i]) {
                    if fractionScale < 1_000_000_000 {
                        fraction = fraction * 10 + Int64(bytes[i] - 0x30)
                        fractionScale *= 10
                    }
                    digits += 1
                    i += 1
                }
            }
            guard digits > 0 else { return nil }
            let unitStart = i
            while i < bytes.count, bytes[i] >= 0x61, bytes[i] <= 0x7A { i += 1 }
            let nanosPerUnit: Int64
            switch String(decoding: bytes[unitStart..<i], as: UTF8.self) {
            case "ms": nanosPerUnit = 1_000_000
            case "s": nanosPerUnit = 1_000_000_000
            case "m": nanosPerUnit = 60_000_000_000
            case "h": nanosPerUnit = 3_600_000_000_000
            case "d": nanosPerUnit = 86_400_000_000_000
            default: return nil
            }
            let (part, overflow) = whole.multipliedReportingOverflow(by: nanosPerUnit)
            let (sum, overflow2) = totalNanos.addingReportingOverflow(part)
            guard !overflow, !overflow2 else { return nil }
            // fraction < 1e9 and nanosPerUnit ≤ 8.64e13: a 128-bit product, then exact division.
            let wide = fraction.multipliedFullWidth(by: nanosPerUnit)
            let fractionNanos = fractionScale.dividingFullWidth(wide).quotient
            let (total, overflow3) = sum.addingReportingOverflow(fractionNanos)
            guard !overflow3 else { return nil }
            totalNanos = total
        }
        milliseconds = totalNanos / 1_000_000
        description = text
    }
}
