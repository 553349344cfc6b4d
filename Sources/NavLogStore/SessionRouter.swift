#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Where each session of an ingest or import goes: its log in the store
/// (found, or a free file name claimed for it), the last seq it has there,
/// and the writer thread that serves it. Sessions are told apart by their
/// exact UTF-8 bytes (``SessionKey``); each gets a number, its route's index.
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

    private let store: Store
    private let sinks: Int
    private var numbers: [SessionKey: Int] = [:]
    private var claimed: Set<String> = []
    private var nextSink = 0
    /// The routes, by session number.
    private(set) var routes: [Route] = []
    /// Of the sessions routed, those whose log did not exist before.
    private(set) var newLogs = 0

    init(store: Store, sinks: Int) {
        self.store = store
        self.sinks = max(sinks, 1)
    }

    /// The session's number, routing it on first sight: an existing log is
    /// continued from its last seq; otherwise a free name is claimed.
    ///
    /// - Throws: ``LogError`` when the store cannot be listed or the existing
    ///   log cannot be read.
    mutating func number(of session: String) throws(LogError) -> Int {
        let key = SessionKey(session)
        if let known = numbers[key] { return known }
        let (existing, free) = try store.locate(session, claimed: claimed)
        var route = Route(path: existing ?? free, lastSeq: 0, sink: nextSink)
        if let existing {
            route.lastSeq = try LogReader(path: existing).lastSeq ?? 0
        } else {
            newLogs += 1
        }
        nextSink = (nextSink + 1) % sinks
        let number = routes.count
        routes.append(route)
        numbers[key] = number
        claimed.insert(route.path)
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

/// A session id compared and hashed by its exact UTF-8 bytes, not by Swift's
/// canonical equivalence (`"e\u{301}" == "\u{E9}"` for `String`).
struct SessionKey: Hashable {
    let id: String
    init(_ session: String) { id = session }

    static func == (a: SessionKey, b: SessionKey) -> Bool {
        let count = a.id.utf8.count
        guard count == b.id.utf8.count else { return false }
        let same: Bool? = a.id.utf8.withContiguousStorageIfAvailable { x in
            b.id.utf8.withContiguousStorageIfAvailable { y in
                count == 0 || memcmp(x.baseAddress!, y.baseAddress!, count) == 0
            }
        } ?? nil
        return same ?? a.id.utf8.elementsEqual(b.id.utf8)
    }

    func hash(into hasher: inout Hasher) {
        let done: Void? = id.utf8.withContiguousStorageIfAvailable { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        if done == nil {
            let bytes = Array(id.utf8)
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }
}
