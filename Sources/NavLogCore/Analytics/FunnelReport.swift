/// A funnel's result over many sessions, by segment (`--by`), ready to
/// print as the CSV of docs/analytics.md, as JSON (`schemas/funnel.schema.json`), as a
/// table or as an SVG chart.
///
/// ```swift
/// let report = FunnelReport(funnel: funnel, by: nil, tallies: ["": tally])
/// print(report.csv, terminator: "")
/// ```
public struct FunnelReport: Hashable, Sendable {
    /// The funnel.
    public var funnel: Funnel
    /// The `--by` field (dotted path), if segmented.
    public var by: String?
    /// The segments, sorted by code point; exactly one (named `""`) when
    /// not segmented.
    public var segments: [Segment]

    /// One segment's rows.
    public struct Segment: Hashable, Sendable {
        /// The segment's value of the `--by` field (`""` when missing or not segmented).
        public var name: String
        /// Sessions in the segment, whether or not they reached step 1.
        public var sessions: Int
        /// One row per step.
        public var rows: [FunnelRow]
    }

    /// Builds the report from tallies by segment. Without `by`, the tally
    /// under `""` (or an empty one) is the only segment.
    public init(funnel: Funnel, by: String?, tallies: [String: FunnelTally]) {
        self.funnel = funnel
        self.by = by
        let patterns = funnel.steps.map(\.description)
        var names = tallies.keys.sorted(by: utf8Less)
        if by == nil { names = [""] }
        segments = names.map { name in
            let tally = tallies[name] ?? FunnelTally(steps: funnel.steps.count)
            return Segment(name: name, sessions: tally.sessions, rows: tally.rows(patterns: patterns))
        }
    }

    /// Sessions over all segments.
    public var sessions: Int { segments.reduce(0) { $0 + $1.sessions } }

    /// The CSV of docs/analytics.md: `step,pattern,sessions,conversion_from_start,
    /// conversion_from_previous,median_seconds_from_previous`, with a leading
    /// `segment` column when segmented.
    public var csv: String {
        var csv = CSVWriter()
        var header = ["step", "pattern", "sessions", "conversion_from_start", "conversion_from_previous", "median_seconds_from_previous"]
        if by != nil { header.insert("segment", at: 0) }
        csv.row(header)
        for segment in segments {
            for row in segment.rows {
                var fields = [String(row.step), row.pattern, String(row.sessions),
                              row.conversionFromStart?.text ?? "", row.conversionFromPrevious?.text ?? "",
                              row.medianMillisecondsFromPrevious?.secondsText ?? ""]
                if by != nil { fields.insert(segment.name, at: 0) }
                csv.row(fields)
            }
        }
        return csv.string
    }

    /// The JSON form (`schemas/funnel.schema.json`), keys sorted, one line.
    public var json: String {
        func number(_ text: String?) -> JSONValue { text.map(JSONValue.number) ?? .null }
        let steps: [JSONValue] = funnel.steps.enumerated().map { k, step in
            .object(["step": .number(String(k + 1)), "pattern": .string(step.description), "target": .string(step.target.rawValue)])
        }
        let segmentValues: [JSONValue] = segments.map { segment in
            .object([
                "segment": by == nil ? .null : .string(segment.name),
                "sessions": .number(String(segment.sessions)),
                "steps": .array(segment.rows.map { row in
                    .object([
                        "step": .number(String(row.step)),
                        "pattern": .string(row.pattern),
                        "sessions": .number(String(row.sessions)),
                        "conversion_from_start": number(row.conversionFromStart?.text),
                        "conversion_from_previous": number(row.conversionFromPrevious?.text),
                        "median_seconds_from_previous": number(row.medianMillisecondsFromPrevious?.secondsText),
                    ])
                }),
            ])
        }
        let object: JSONValue = .object([
            "by": by.map(JSONValue.string) ?? .null,
            "within_ms": funnel.window.map { .number(String($0.milliseconds)) } ?? .null,
            "order": .string(funnel.order.rawValue),
            "exclude": .array(funnel.exclusions.map { .string($0.description) }),
            "steps": .array(steps),
            "sessions": .number(String(sessions)),
            "segments": .array(segmentValues),
        ])
        return object.canonicalText
    }
}
