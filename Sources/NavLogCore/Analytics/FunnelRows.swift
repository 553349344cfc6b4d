/// A session's rows as ``Funnel/evaluate(_:scratch:)`` reads them, in seq
/// order: each row's seq, time and kind, and which of the funnel's steps and
/// exclusions it matches. Occurrences (``OccurrenceRows``) match each row's
/// name against the globs; a store's screen projection matches each distinct
/// name of a block once and hands rows over as small integers.
public protocol FunnelRows {
    var count: Int { get }
    func seq(_ i: Int) -> Int
    /// The row's time, in milliseconds since the epoch.
    func milliseconds(_ i: Int) -> Int64
    func target(_ i: Int) -> FunnelStep.Target
    /// Whether row `i` matches step `k` of the funnel.
    func matches(step k: Int, _ i: Int) -> Bool
    /// Whether row `i` matches one of the funnel's exclusions.
    func isExcluded(_ i: Int) -> Bool
}

/// Occurrences matched against a funnel's steps, row by row.
public struct OccurrenceRows: FunnelRows {
    let funnel: Funnel
    let occurrences: UnsafeBufferPointer<FunnelOccurrence>

    public init(funnel: Funnel, occurrences: UnsafeBufferPointer<FunnelOccurrence>) {
        self.funnel = funnel
        self.occurrences = occurrences
    }

    public var count: Int { occurrences.count }
    public func seq(_ i: Int) -> Int { occurrences[i].seq }
    public func milliseconds(_ i: Int) -> Int64 { occurrences[i].t.milliseconds }
    public func target(_ i: Int) -> FunnelStep.Target { occurrences[i].target }
    public func matches(step k: Int, _ i: Int) -> Bool { funnel.steps[k].matches(occurrences[i]) }
    public func isExcluded(_ i: Int) -> Bool { funnel.exclusions.contains { $0.matches(occurrences[i]) } }
}

/// The work tables of ``Funnel/evaluate(_:scratch:)``, kept from one session
/// to the next so that a scan allocates them once.
public struct FunnelScratch: Sendable {
    var next: [Int32] = []
    var excluded: [Int32] = []
    var nextOfTarget: [Int32] = []
    var chain: [Int] = []

    static let targets: [FunnelStep.Target] = [.screen, .mark, .url]

    public init() {}
}
