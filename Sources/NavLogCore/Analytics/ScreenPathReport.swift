/// `navlog paths` output: the top rows of a ``ScreenPathTally`` as CSV and
/// JSON (`schemas/paths.schema.json`).
///
/// CSV columns: `rank,from,to,count,sessions,share` for transitions,
/// `rank,path,count,sessions,share` for paths (screens joined by ` > `);
/// `share` is count ÷ all paths counted, with 4 decimals.
public struct ScreenPathReport: Sendable {
    public let tally: ScreenPathTally
    public let rows: [ScreenPathTally.Row]

    public init(_ tally: ScreenPathTally, top: Int) {
        self.tally = tally
        rows = tally.top(top)
    }

    /// Whether the rows are transitions (two screens each).
    public var isTransitions: Bool {
        if case .transitions = tally.mode { return true }
        return false
    }

    /// A path as one string: `Recipe/pie > Cart > (end)`.
    public static func joined(_ path: [String]) -> String { path.joined(separator: " > ") }

    /// `count ÷ total`, or `nil` when nothing was counted.
    public func share(_ row: ScreenPathTally.Row) -> FunnelRatio? {
        tally.total == 0 ? nil : FunnelRatio(row.count, of: tally.total)
    }

    public var csv: String {
        var csv = CSVWriter()
        csv.row(isTransitions ? ["rank", "from", "to", "count", "sessions", "share"] : ["rank", "path", "count", "sessions", "share"])
        for (i, row) in rows.enumerated() {
            let screens = isTransitions ? row.path : [Self.joined(row.path)]
            csv.row([String(i + 1)] + screens + [String(row.count), String(row.sessions), share(row)?.text ?? ""])
        }
        return csv.string
    }

    public var json: String {
        let mode: String, anchor: JSONValue
        switch tally.mode {
        case .transitions: (mode, anchor) = ("transitions", .null)
        case .after(let glob): (mode, anchor) = ("after", .string(glob.description))
        case .before(let glob): (mode, anchor) = ("before", .string(glob.description))
        }
        let object: JSONValue = .object([
            "mode": .string(mode),
            "anchor": anchor,
            "depth": .number(String(tally.depth)),
            "total": .number(String(tally.total)),
            "sessions": .number(String(tally.sessions)),
            "rows": .array(rows.enumerated().map { i, row in
                .object([
                    "rank": .number(String(i + 1)),
                    "path": .array(row.path.map(JSONValue.string)),
                    "count": .number(String(row.count)),
                    "sessions": .number(String(row.sessions)),
                    "share": share(row).map { .number($0.text) } ?? .null,
                ])
            }),
        ])
        return object.canonicalText
    }
}
