import NavLogCore

/// `navlog funnel`'s table: one line per step with sessions, conversions,
/// the median time from the previous step and a bar of the sessions
/// reached; one block per segment with `--by`.
///
/// ```
/// 1,000 sessions
/// step  pattern        sessions  from start  from previous  median    
///    1  tab:browse          812      100.0%          81.2%            ██████████████████████████████
///    2  Recipe/*            503       61.9%          61.9%    12.4 s  ██████████████████▋
/// ```
struct FunnelTable {
    let report: FunnelReport
    let style: StateTree.Style
    /// The longest bar, in characters.
    static let barWidth = 30


    var text: String {
        var out = ""
        var heading = "\(FunnelText.grouped(report.sessions)) session\(report.sessions == 1 ? "" : "s")"
        if let window = report.funnel.window { heading += " · within \(window.description)" }
        if report.funnel.order == .strict { heading += " · strict order" }
        if !report.funnel.exclusions.isEmpty { heading += " · excluding " + report.funnel.exclusions.map(\.description).joined(separator: ", ") }
        out += style.paint(heading, "1") + "\n"
        if report.segments.isEmpty { out += "(no sessions)\n" }
        let patternWidth = max(7, report.funnel.steps.map { $0.description.count }.max() ?? 0)
        for segment in report.segments {
            if let by = report.by {
                let name = segment.name.isEmpty ? "(none)" : ReadableText.escaped(segment.name)
                out += "\n" + style.paint("\(by) = \(name)", "1") + " · \(FunnelText.grouped(segment.sessions)) session\(segment.sessions == 1 ? "" : "s")\n"
            }
            out += style.paint(Self.header(patternWidth: patternWidth), "2") + "\n"
            let scale = max(1, segment.rows.first?.sessions ?? 0)
            for row in segment.rows {
                var line = Self.pad(String(row.step), 4, right: true) + "  " + Self.pad(row.pattern, patternWidth)
                line += "  " + Self.pad(FunnelText.grouped(row.sessions), 8, right: true)
                line += "  " + Self.pad(Self.percent(row.conversionFromStart), 10, right: true)
                line += "  " + Self.pad(Self.percent(row.conversionFromPrevious), 13, right: true)
                line += "  " + Self.pad(row.medianMillisecondsFromPrevious.map(FunnelText.duration) ?? "", 8, right: true)
                line += "  " + style.paint(Self.bar(row.sessions, of: scale), "36")
                out += line + "\n"
            }
        }
        return out
    }

    static func header(patternWidth: Int) -> String {
        "step  " + pad("pattern", patternWidth) + "  sessions  from start  from previous    median"
    }

    /// `61.9%`, or empty when not defined.
    static func percent(_ ratio: FunnelRatio?) -> String { ratio.map(FunnelText.percent) ?? "" }

    /// A bar of `value / scale` of ``barWidth`` characters, in eighths.
    static func bar(_ value: Int, of scale: Int) -> String {
        let eighths = value * barWidth * 8 / scale
        let partials = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
        return String(repeating: "█", count: eighths / 8) + partials[eighths % 8]
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let fill = String(repeating: " ", count: max(0, width - text.count))
        return right ? fill + text : text + fill
    }
}
