/// Human-readable numbers of funnel tables and charts.
public enum FunnelText {
    /// `61.9%` (one decimal, rounded half up).
    public static func percent(_ ratio: FunnelRatio) -> String {
        let tenths = (ratio.numerator * 2_000 / ratio.denominator + 1) / 2
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// `850 ms`, `12.4 s`, `3.2 min`, `1.5 h`.
    public static func duration(_ ms: Int64) -> String {
        let a = abs(Double(ms))
        let sign = ms < 0 ? "-" : ""
        func one(_ v: Double) -> String {
            let tenths = Int((v * 10).rounded())
            return "\(tenths / 10).\(tenths % 10)"
        }
        if a < 1_000 { return "\(ms) ms" }
        if a < 60_000 { return sign + one(a / 1_000) + " s" }
        if a < 3_600_000 { return sign + one(a / 60_000) + " min" }
        return sign + one(a / 3_600_000) + " h"
    }

    /// `12,345`.
    public static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return out
    }
}
