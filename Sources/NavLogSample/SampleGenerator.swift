/// Realistic, seeded synthetic sessions of a recipe app, for demos,
/// benchmarks and trying navlog out.
///
/// ```swift
/// let generator = SampleGenerator(.init(sessions: 1_000, seed: 7, interleave: true))
/// var writer = CanonicalWriter()
/// for event in generator.events() {        // one event at a time
///     writer.write(event)
///     writer.bytes.append(0x0A)
/// }
/// let third: [Event] = Array(generator.session(at: 2))
/// ```
///
/// Sessions look like real use: phones with a tab bar, iPads with split views
/// and sometimes a second window, sheets and alerts, deep links with the
/// navigation they cause, a shopping funnel with drop-off, a few anomalies,
/// unknown event kinds and `meta` objects (see ``SampleSession``).
///
/// The output depends only on the options: the same options give
/// byte-identical events on every platform. Each session is generated from
/// its own stream of the seed, so a session is the same whether it is made
/// alone, in order, or interleaved with others.
public struct SampleGenerator: Sendable {
    /// What to generate.
    public struct Options: Hashable, Sendable {
        /// How many sessions.
        public var sessions: Int
        /// The seed; every choice follows from it.
        public var seed: UInt64
        /// How many events a session has, chosen uniformly in this range
        /// (at least 1).
        public var eventsPerSession: ClosedRange<Int>
        /// When the first session starts.
        public var start: Timestamp
        /// App versions for `session.start`, oldest first; later ones are
        /// more common (weights 1, 2, 3, …).
        public var appVersions: [String]
        /// Whether ``SampleGenerator/events()`` interleaves sessions by time,
        /// the way a collector receives them, instead of one after another.
        public var interleave: Bool
        /// The most sessions interleaved at once. Sessions start far enough
        /// apart that about half this many are under way at any time.
        public var liveSessions: Int
        /// Whether iPad sessions with tabs use the tab model of iOS 18 and
        /// later: sidebar sections and a search tab in `tabs.define`, the
        /// `sidebarAdaptable` presentation with each `layout.change`, and
        /// the user's own customization (`tabs.customize`). Off by default,
        /// so that the output of every other option stays what it was.
        public var ios18Tabs: Bool
        /// Whether session lengths follow a heavy tail instead of
        /// ``eventsPerSession``: a third of the sessions have one event, the
        /// median is 3, a few have hundreds (up to 999; about 5 on average).
        public var heavyTailedLengths: Bool
        /// With a value N (at least 4), sessions are short page flows over N
        /// screens (tabs, categories, recipes, steps; see
        /// ``SampleSession``): every screen view is one of N screens. `nil`
        /// (the default): the full app.
        public var screens: Int?

        /// 2026-11-20T10:00:00.000Z.
        public static let defaultStart = Timestamp(milliseconds: 1_795_168_800_000)
        public static let defaultAppVersions = ["3.0.2", "3.1.0", "3.1.1", "3.2.0"]

        public init(
            sessions: Int = 100, seed: UInt64 = 1, eventsPerSession: ClosedRange<Int> = 20...100,
            start: Timestamp = Options.defaultStart, appVersions: [String] = Options.defaultAppVersions,
            interleave: Bool = false, liveSessions: Int = 64, ios18Tabs: Bool = false,
            heavyTailedLengths: Bool = false, screens: Int? = nil
        ) {
            self.sessions = sessions
            self.seed = seed
            self.eventsPerSession = eventsPerSession
            self.start = start
            self.appVersions = appVersions
            self.interleave = interleave
            self.liveSessions = liveSessions
            self.ios18Tabs = ios18Tabs
            self.heavyTailedLengths = heavyTailedLengths
            self.screens = screens
        }

        /// Session lengths around a mean: `mean/2 … mean + mean/2` (at least 1).
        public static func eventsPerSession(mean: Int) -> ClosedRange<Int> {
            let low = max(1, mean / 2)
            return low...max(low, mean + mean / 2)
        }
    }

    /// The options in use, with out-of-range values clamped (no negative
    /// counts, at least one event per session, at least one live session, the
    /// default versions when none are given, at least 4 screens).
    public let options: Options

    /// Milliseconds between consecutive session starts (each start also gets
    /// a jitter below this).
    public let spacing: Int64

    /// About how many milliseconds apart a session's events are, on average.
    static let meanGapMilliseconds = 5_500

    public init(_ options: Options) {
        var o = options
        o.sessions = max(0, o.sessions)
        let low = max(1, o.eventsPerSession.lowerBound)
        o.eventsPerSession = low...max(low, o.eventsPerSession.upperBound)
        if o.appVersions.isEmpty { o.appVersions = Options.defaultAppVersions }
        o.liveSessions = max(1, o.liveSessions)
        o.screens = o.screens.map { max(4, $0) }
        self.options = o
        let mean = o.heavyTailedLengths ? 5 : (o.eventsPerSession.lowerBound + o.eventsPerSession.upperBound) / 2
        let (duration, overflow) = mean.multipliedReportingOverflow(by: Self.meanGapMilliseconds)
        spacing = Int64(max(1, (overflow ? Int.max : duration) / max(1, o.liveSessions / 2)))
    }

    /// The number of sessions.
    public var count: Int { options.sessions }

    /// The id of the session at `index` (from 0): `s-000001`, `s-000002`, …
    public func sessionID(_ index: Int) -> String {
        let digits = String(index + 1)
        return "s-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The session at `index` (from 0), as an iterator of its events.
    /// `Array(generator.session(at: i))` gives its events.
    public func session(at index: Int) -> SampleSession {
        SampleSession(index: index, id: sessionID(index), options: options, spacing: spacing)
    }

    /// Every session, one at a time, in order.
    public func sessions() -> LazyMapSequence<Range<Int>, SampleSession> {
        (0..<count).lazy.map { session(at: $0) }
    }

    /// Every event, one at a time: session after session, or interleaved by
    /// time when ``Options/interleave`` is set.
    ///
    /// - Complexity: O(1) memory in the number of sessions and events
    ///   (O(``Options/liveSessions``) when interleaving); O(log live) time
    ///   per event.
    public func events() -> SampleEventStream { SampleEventStream(self) }
}
