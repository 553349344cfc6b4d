import NavLogCore

/// Where each session of an import goes: its log (``LogLocator``), the last
/// seq it has there, and the writer thread that serves it. Sessions are told
/// apart by their exact UTF-8 bytes (``SessionNumbers``); each gets a
/// number, its route's index.
struct SessionRouter {
    /// A session's log, as the reading side knows it.
    struct Route {
        /// The log's path.
        var path: String
        /// The seq of its last event (stored or queued); 0 when none.
        var lastSeq: Int
        /// The writer thread that appends to it.
        var sink: Int
        /// Whether its writer thread has been told the path.
        var announced = false
    }

    private let locator: LogLocator
    private let sinks: Int
    private var numbers = SessionNumbers()
    /// The routes, by session number.
    private(set) var routes: [Route] = []
    /// Of the sessions routed, those whose log did not exist before.
    var newLogs: Int { locator.newLogs }
    /// The logs of the sessions routed.
    var paths: [String] { locator.paths }

    init(store: Store, sinks: Int) {
        self.locator = LogLocator(store: store)
        self.sinks = max(sinks, 1)
    }

    /// The session's number, routing it on first sight: an existing log is
    /// continued from its last seq; otherwise a free name is claimed.
    ///
    /// - Throws: ``LogError`` when the store cannot be listed or the existing
    ///   log cannot be read.
    mutating func number(of session: String) throws(LogError) -> Int {
        let (number, isNew) = numbers.number(of: session)
        guard isNew else { return number }
        let placement = try locator.place(session)
        routes.append(Route(path: placement.path, lastSeq: placement.lastSeq, sink: number % sinks))
        return number
    }

    /// The path of session `number`'s log the first time it is asked for
    /// (to tell its writer thread), then `nil`.
    mutating func pathToAnnounce(_ number: Int) -> String? {
        guard !routes[number].announced else { return nil }
        routes[number].announced = true
        return routes[number].path
    }

    /// Records the last seq queued for session `number`.
    mutating func setLastSeq(_ seq: Int, of number: Int) { routes[number].lastSeq = seq }
}
