/// What `navlog paths` counts over sessions: screen-to-screen transitions,
/// or the paths of screens after (or before) a screen.
///
/// ```swift
/// var tally = ScreenPathTally(mode: .after(GlobPattern("Recipe/*")), depth: 3)
/// tally.add(session.occurrences)
/// tally.top(10)   // the ten most frequent paths
/// ```
///
/// Paths follow one scene at a time: a transition is two consecutive screen
/// views of the same scene, and a path after (before) a view is the next
/// (previous) `depth` views of its scene, cut short by `(end)` (`(start)`)
/// when the scene has fewer. Every matching view counts (a session that
/// opens a recipe five times adds five paths); ``Row/sessions`` says in how
/// many sessions a path occurred.
public struct ScreenPathTally: Sendable {
    /// What is counted.
    public enum Mode: Hashable, Sendable {
        /// Pairs of consecutive screen views.
        case transitions
        /// The views after each view matching the glob (the view itself first).
        case after(GlobPattern)
        /// The views before each view matching the glob (the view itself last).
        case before(GlobPattern)
    }

    /// One counted path and how often it occurred.
    public struct Row: Hashable, Sendable {
        /// The screens, in order (`(start)` / `(end)` where a scene ran out).
        public var path: [String]
        /// How many times.
        public var count: Int
        /// In how many sessions.
        public var sessions: Int

        public init(path: [String], count: Int, sessions: Int) {
            self.path = path
            self.count = count
            self.sessions = sessions
        }
    }

    public let mode: Mode
    /// Views after (before) the anchor; 1 for transitions.
    public let depth: Int
    /// Paths counted (transitions, or views matching the anchor).
    public internal(set) var total = 0
    /// Sessions looked at.
    public internal(set) var sessions = 0
    /// Paths merged from other tallies, by name.
    private var counts: [[String]: (count: Int, sessions: Int)] = [:]
    /// Paths counted here, on name ids (``add(_:)``, ``add(projected:)``).
    var byID = ScreenPathIDCounts()

    public static let startMarker = "(start)"
    public static let endMarker = "(end)"

    public init(mode: Mode, depth: Int = 3) {
        self.mode = mode
        if case .transitions = mode { self.depth = 1 } else { self.depth = max(1, depth) }
    }

    /// Counts one session's screen views (other occurrences are ignored).
    public mutating func add(_ occurrences: [FunnelOccurrence]) {
        sessions += 1
        total += byID.add(occurrences, mode: mode, depth: depth, anchor: anchor)
    }

    /// The anchor glob of `.after` and `.before`.
    var anchor: GlobPattern? {
        switch mode {
        case .transitions: nil
        case .after(let glob), .before(let glob): glob
        }
    }

    /// Calls `count` with each path of one scene's screen views `names` (in
    /// order), built in `path`: the one place the rules of the type's
    /// documentation are applied, over names or over name ids.
    static func forEachPath<Name>(mode: Mode, depth: Int, in names: ArraySlice<Name>, matches: (Name) -> Bool, start: Name, end: Name,
                           into path: inout [Name], _ count: ([Name]) -> Void) {
        for i in names.indices {
            path.removeAll(keepingCapacity: true)
            switch mode {
            case .transitions:
                guard i > names.startIndex else { continue }
                path.append(names[i - 1])
                path.append(names[i])
            case .after:
                guard matches(names[i]) else { continue }
                path.append(contentsOf: names[i..<min(names.endIndex, i + depth + 1)])
                if path.count < depth + 1 { path.append(end) }
            case .before:
                guard matches(names[i]) else { continue }
                if i - names.startIndex < depth { path.append(start) }
                path.append(contentsOf: names[max(names.startIndex, i - depth)...i])
            }
            count(path)
        }
    }

    /// Adds another tally's sessions (same mode and depth).
    public mutating func merge(_ other: ScreenPathTally) {
        total += other.total
        sessions += other.sessions
        for (path, entry) in other.allCounts {
            var mine = counts[path] ?? (0, 0)
            mine.count += entry.count
            mine.sessions += entry.sessions
            counts[path] = mine
        }
    }

    /// The paths counted, those counted on name ids included.
    private var allCounts: [[String]: (count: Int, sessions: Int)] {
        guard !byID.counts.isEmpty else { return counts }
        var all = counts
        for (path, entry) in byID.counts {
            let names = path.map { byID.name($0) }
            var mine = all[names] ?? (0, 0)
            mine.count += entry.count
            mine.sessions += entry.sessions
            all[names] = mine
        }
        return all
    }

    /// The `n` most frequent paths: by count, then sessions (both
    /// descending), then the path's screens by code point.
    ///
    /// - Complexity: O(p log p) for p distinct paths.
    public func top(_ n: Int) -> [Row] {
        let rows = allCounts.map { Row(path: $0.key, count: $0.value.count, sessions: $0.value.sessions) }
        return Array(rows.sorted { a, b in
            if a.count != b.count { return a.count > b.count }
            if a.sessions != b.sessions { return a.sessions > b.sessions }
            return a.path.lexicographicallyPrecedes(b.path, by: utf8Less)
        }.prefix(max(0, n)))
    }
}
