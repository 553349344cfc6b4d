#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore
import NavLogStore

/// Reading one session from what the user names on the command line.
enum SessionInput {
    /// The most rejected lines printed one by one; the rest are counted.
    static let rejectsShown = 20

    /// Folds the session in `path` up to `spec`. Rejected lines are printed
    /// (`file:line: reason`) and end the command with exit 1: no state is
    /// computed from half an input. `option` is the option that picks a
    /// session, named when the input holds several.
    /// `blocks`, when given, checks or notes the log's blocks the state is not folded from.
    static func state(of path: String, session: String?, at spec: StateSpec,
                      option: String = "--session", blocks: BlockCheck? = nil) throws -> NavigationState {
        switch try open(path, session: session, option: option) {
        case .log(let reader, let file):
            try requireEvents(reader, file)
            try blocks?.prepare(reader, file)
            do { return try reader.state(at: spec) } catch { throw CLIFailure(error) }
        case .stored(let stored):
            do { return try stored.state(at: spec) } catch { throw CLIFailure(SessionLookupError.segments(error)) }
        case .ndjson:
            break
        }
        var states: [SessionID: NavigationProjector] = [:]
        let only = try readNDJSON(path, session: session, option: option) { event in
            let key = SessionID(event.session)
            if spec.includes(event) {
                states[key, default: NavigationProjector(session: event.session)].apply(event)
            } else if states[key] == nil {
                states[key] = NavigationProjector(session: event.session)
            }
        }
        return states[SessionID(only)]!.state
    }

    /// Every event of the one session in `path`, in seq order. Rejected
    /// lines are printed and end the command with exit 1, as for ``state(of:session:at:)``.
    ///
    /// - Complexity: O(n) time and memory in the session's events; commands
    ///   that only need a state should call ``state(of:session:at:)``.
    static func events(of path: String, session: String?,
                       option: String = "--session") throws -> (session: String, events: [Event]) {
        try events(of: open(path, session: session, option: option), path, session: session, option: option)
    }

    /// Every event of the session `opened` (what ``open(_:session:option:)`` made of `path`).
    static func events(of opened: Opened, _ path: String, session: String?,
                       option: String = "--session") throws -> (session: String, events: [Event]) {
        switch opened {
        case .log(let reader, let file):
            var events: [Event] = []
            events.reserveCapacity(reader.eventCount)
            do {
                let cursor = reader.cursor()
                while let event = try cursor.next() { events.append(event) }
            } catch { throw CLIFailure(error) }
            guard let first = events.first else { throw CLIFailure.trouble("\(file): no events") }
            return (first.session, events)
        case .stored(let stored):
            do { return (stored.id, try stored.events()) } catch { throw CLIFailure(SessionLookupError.segments(error)) }
        case .ndjson:
            break
        }
        var bySession: [SessionID: [Event]] = [:]
        let only = try readNDJSON(path, session: session, option: option) { bySession[SessionID($0.session), default: []].append($0) }
        return (only, bySession[SessionID(only)]!)
    }

    /// Reads NDJSON, handing `body` every accepted event (of `session`, when
    /// given), and returns the one session the input holds. Rejected lines
    /// are printed as `file:line: reason` and end the command with exit 1.
    private static func readNDJSON(_ path: String, session: String?, option: String,
                                   _ body: (Event) -> Void) throws -> String {
        let reader: NDJSONEventReader
        do { reader = try NDJSONEventReader(path: path) } catch { throw CLIFailure(error) }
        var sequencer = Sequencer()
        var seen: Set<SessionID> = []
        var order: [String] = []
        var rejected = 0
        do {
            try reader.forEach(sequencer: &sequencer) { (result) throws(Never) in
                switch result {
                case .success(let event):
                    if let session, !SessionID.same(event.session, session) { return }
                    if seen.insert(SessionID(event.session)).inserted { order.append(event.session) }
                    body(event)
                case .failure(let reject):
                    rejected += 1
                    if rejected <= rejectsShown { Output.error(reject.description) }
                }
            }
        } catch {
            if case .read(let e) = error { throw CLIFailure(e) }
        }
        return try checkOneSession(path: path, session: session, order: order, rejected: rejected, option: option)
    }

    /// Turns rejected lines and a wrong number of sessions into the command's failure.
    private static func checkOneSession(path: String, session: String?, order: [String], rejected: Int,
                                        option: String) throws -> String {
        if rejected > 0 {
            let more = rejected > rejectsShown ? " (\(rejected - rejectsShown) not shown)" : ""
            throw CLIFailure.no("\(displayName(path)): \(rejected) line\(rejected == 1 ? "" : "s") rejected\(more); no state printed")
        }
        if order.count > 1 {
            let names = order.prefix(3).map { JSONValue.string($0).canonicalText }.joined(separator: ", ")
                + (order.count > 3 ? ", …" : "")
            throw CLIFailure.trouble("\(displayName(path)): holds \(order.count) sessions (\(names)); choose one with \(option)")
        }
        guard let only = order.first else {
            if let session { throw CLIFailure.trouble("\(displayName(path)): no events of session \"\(session)\"") }
            throw CLIFailure.trouble("\(displayName(path)): no events")
        }
        return only
    }

    /// One session as the command line names it, opened.
    enum Opened {
        /// A log: the file named, or the log of a session of a version-1 store (`file` is its path).
        case log(LogReader, file: String)
        /// A session of a segment store.
        case stored(StoredSession)
        /// NDJSON (a file or standard input), read by the caller.
        case ndjson
    }

    /// Opens what `path` names: a store's session (`STORE --session ID`,
    /// the id given by `option`), a log, or NDJSON. A store without an id
    /// is a usage error naming the option.
    /// `alongside`: the other side of a comparison, opened from `path`;
    /// when it is a session of the same store, its reader is shared.
    static func open(_ path: String, session: String?, option: String = "--session",
                     alongside other: (path: String, opened: Opened)? = nil) throws -> Opened {
        if SessionLookup.isStore(path) {
            guard let session else {
                let layout = StoreLayout.of(path)
                if layout == .other || layout == .empty { throw CLIFailure.trouble(StoreLayout.notAStoreMessage(path)) }
                throw CLIFailure.trouble("\(path): is a directory (a store): choose one of its sessions with \(option) ID")
            }
            if let other, other.path == path, case .stored(let stored) = other.opened {
                do { return .stored(try stored.sibling(session)) } catch { throw CLIFailure(error) }
            }
            let found: SessionLookup.Found
            do { found = try SessionLookup.open(store: path, session: session) } catch { throw CLIFailure(error) }
            switch found {
            case .log(let file): return .log(try openLog(file, session: session), file: file)
            case .segments(let stored):
                for damage in stored.damage { Output.error(damage.description) }
                return .stored(stored)
            }
        }
        if isLog(path) { return .log(try openLog(path, session: session), file: path) }
        return .ndjson
    }

    /// Whether `path` is a `.navlog` log rather than NDJSON: it starts as a
    /// log does (``LogReader/isLog(path:)``, the store module knows the
    /// format). Standard input is always NDJSON.
    static func isLog(_ path: String) -> Bool {
        path != "-" && LogReader.isLog(path: path)
    }

    /// Opens a log, reporting a torn tail on stderr (the prefix is used) and
    /// checking `--session` against the session it holds.
    /// `preloadingUpTo`: a log of at most that many bytes is read whole at once
    /// (see ``LogReader/init(path:preloadingUpTo:)``).
    static func openLog(_ path: String, session: String?, preloadingUpTo limit: Int = 0) throws -> LogReader {
        let reader: LogReader
        do { reader = try LogReader(path: path, preloadingUpTo: limit) } catch { throw CLIFailure(error) }
        if let damage = reader.damage {
            guard damage.isTornTail else { throw CLIFailure.no("\(path): \(damage)") }
            Output.error("\(path): \(damage)")
        }
        if let session {
            let held: String?
            do { held = try reader.session() } catch { throw CLIFailure(error) }
            if let held, !SessionID.same(held, session) {
                throw CLIFailure.trouble("\(path): holds session \"\(held)\", not \"\(session)\"")
            }
        }
        return reader
    }

    static func displayName(_ path: String) -> String { InputName.shown(path) }

    /// Refuses a log that holds no events (made by appending nothing): it
    /// has no session to show a state of — as an empty NDJSON input.
    static func requireEvents(_ reader: LogReader, _ path: String) throws {
        if reader.eventCount == 0 { throw CLIFailure.trouble("\(displayName(path)): no events") }
    }
}

extension CLIFailure {
    /// A store's session that cannot be read: an unknown session, a
    /// missing or unreadable store is exit 2; damage is exit 1.
    init(_ error: SessionLookupError) {
        switch error {
        case .log(let error), .segments(.io(let error)):
            self.init(error)
        case .segments(.corrupt), .segments(.damaged):
            self = .no(error.description)
        default:
            self = .trouble(error.description)
        }
    }
}
