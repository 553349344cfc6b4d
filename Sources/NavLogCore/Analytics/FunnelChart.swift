/// A funnel report as an SVG chart for a report or a slide: one horizontal
/// bar per step on a faint full-width track (the sessions that reached step
/// 1), each labelled with its sessions and conversion from the start, and
/// between bars the conversion from the previous step and its median time.
/// With `--by`, one panel per segment, one under another.
///
/// ```swift
/// let svg = FunnelChart(report).svg   // a complete SVG 1.1 document
/// ```
///
/// The document is self-contained (no scripts, no external fonts or
/// images), sized in pixels with a `viewBox`, and renders the same in
/// browsers and in `rsvg-convert`.
public struct FunnelChart: Sendable {
    public let report: FunnelReport

    public init(_ report: FunnelReport) { self.report = report }

    static let width = 760
    static let labelWidth = 210
    static let barLeft = 230
    static let barWidth = 500
    static let barHeight = 34
    static let rowHeight = 62
    static let palette = ["#1f4e79", "#2563a6", "#2f7bc4", "#4a93d6", "#6aaae0", "#8cc0ea", "#aed3f1"]

    /// The SVG document.
    public var svg: String {
        var body = ""
        var y = 28
        var title = "Funnel · \(FunnelText.grouped(report.sessions)) session\(report.sessions == 1 ? "" : "s")"
        var notes: [String] = []
        if let window = report.funnel.window { notes.append("within \(window.description) of the first step") }
        if report.funnel.order == .strict { notes.append("strict order") }
        if !report.funnel.exclusions.isEmpty { notes.append("excluding " + report.funnel.exclusions.map(\.description).joined(separator: ", ")) }
        if let by = report.by { title += " by \(by)" }
        body += text(x: 20, y: y, title, size: 20, weight: "600", fill: "#111827")
        y += 22
        if !notes.isEmpty {
            body += text(x: 20, y: y, notes.joined(separator: " · "), size: 13, fill: "#4b5563")
            y += 18
        }
        y += 12
        if report.segments.isEmpty {
            body += text(x: 20, y: y + 20, "No sessions.", size: 14, fill: "#4b5563")
            y += 40
        }
        for segment in report.segments {
            if let by = report.by {
                let name = segment.name.isEmpty ? "(none)" : segment.name
                body += text(x: 20, y: y + 14, "\(by) = \(name) · \(FunnelText.grouped(segment.sessions)) session\(segment.sessions == 1 ? "" : "s")", size: 15, weight: "600", fill: "#1f2937")
                y += 28
            }
            body += panel(segment, top: y)
            y += segment.rows.count * Self.rowHeight + 16
        }
        let height = y + 8
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Self.width)" height="\(height)" viewBox="0 0 \(Self.width) \(height)" \
            font-family="Helvetica, Arial, 'DejaVu Sans', sans-serif">
            <title>\(MarkupText.escaped(title))</title>
            <rect x="0" y="0" width="\(Self.width)" height="\(height)" fill="#ffffff"/>
            \(body)</svg>

            """
    }

    private func panel(_ segment: FunnelReport.Segment, top: Int) -> String {
        var out = ""
        let scale = segment.rows.first?.sessions ?? 0
        for (k, row) in segment.rows.enumerated() {
            let y = top + k * Self.rowHeight
            let fraction = scale > 0 ? Double(row.sessions) / Double(scale) : 0
            let width = fraction * Double(Self.barWidth)
            let color = Self.palette[min(k, Self.palette.count - 1)]
            // Label: step number and pattern, right-aligned against the bar.
            out += text(x: Self.labelWidth, y: y + 22, Self.truncated(row.pattern, 23), size: 14, weight: "600", fill: "#111827", anchor: "end")
            out += text(x: Self.labelWidth, y: y + 38, "step \(row.step)", size: 11, fill: "#6b7280", anchor: "end")
            // Track and bar.
            out += "<rect x=\"\(Self.barLeft)\" y=\"\(y + 6)\" width=\"\(Self.barWidth)\" height=\"\(Self.barHeight)\" rx=\"4\" fill=\"#eef2f7\"/>\n"
            if width > 0 {
                out += "<rect x=\"\(Self.barLeft)\" y=\"\(y + 6)\" width=\"\(Self.format(max(width, 2)))\" height=\"\(Self.barHeight)\" rx=\"4\" fill=\"\(color)\"/>\n"
            }
            let share = row.conversionFromStart.map { FunnelText.percent($0) } ?? "—"
            let label = "\(FunnelText.grouped(row.sessions)) · \(share)"
            // The value inside the bar when it fits, else just after it.
            let inside = width > 130
            let labelX = inside ? Double(Self.barLeft) + width - 10 : Double(Self.barLeft) + width + 8
            out += text(x: labelX, y: y + 28, label, size: 14, weight: "600", fill: inside ? "#ffffff" : "#1f2937", anchor: inside ? "end" : "start")
            // Between this bar and the next: conversion from the previous step and its median time.
            if k + 1 < segment.rows.count {
                let next = segment.rows[k + 1]
                var note = "↓ " + (next.conversionFromPrevious.map { FunnelText.percent($0) } ?? "—") + " of previous"
                if let ms = next.medianMillisecondsFromPrevious { note += " · median " + FunnelText.duration(ms) }
                out += text(x: Double(Self.barLeft) + 4, y: y + Self.barHeight + 21, note, size: 12, fill: "#4b5563")
            }
        }
        return out
    }

    private func text(x: Int, y: Int, _ content: String, size: Int, weight: String = "400", fill: String, anchor: String = "start") -> String {
        text(x: Double(x), y: y, content, size: size, weight: weight, fill: fill, anchor: anchor)
    }

    private func text(x: Double, y: Int, _ content: String, size: Int, weight: String = "400", fill: String, anchor: String = "start") -> String {
        "<text x=\"\(Self.format(x))\" y=\"\(y)\" font-size=\"\(size)\" font-weight=\"\(weight)\" fill=\"\(fill)\" text-anchor=\"\(anchor)\">\(MarkupText.escaped(content))</text>\n"
    }

    static func format(_ v: Double) -> String {
        let tenths = Int((v * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }

    static func truncated(_ s: String, _ limit: Int) -> String {
        s.count <= limit ? s : String(s.prefix(limit - 1)) + "…"
    }
}
