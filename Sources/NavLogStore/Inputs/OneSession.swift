import NavLogCore

/// One session, wherever it lives: a `.navlog` log, a session of a store
/// (`STORE --session ID`; a segment store or a version-1 store of logs), or
/// NDJSON (a file or standard input) that holds it. Every one-session command
/// (`state`, `blame`, `replay`, `diff`, `bisect`, `cat`, `info`, `export log`)
/// opens it here and asks it; none looks at what kind of input it is. A new
/// kind of input is told apart in ``InputKind`` and read here.
///
/// ```swift
/// let session = try OneSession.open("store", session: "s-1")
/// let state = try session.state(at: .seq(9))
/// try session.lines(EventFilter(fromSeq: 3)) { chunk in write(chunk) }
/// ```
///
/// What to tell the user on the way (a torn tail that was cut, damage in a
/// store outside the session, rejected NDJSON lines) goes to its
/// ``Messages`` as it is found.
public final class OneSession {
    /// Where what is found on the way goes.
    public struct Messages {
        /// A line for standard error: a torn tail, damage outside the session.
        public var notice: (String) -> Void
        /// A rejected NDJSON line (the first ``OneSession/rejectsShown`` of them).
        public var reject: (RejectedLine) -> Void

        public init(notice: @escaping (String) -> Void = { _ in }, reject: @escaping (RejectedLine) -> Void = { _ in }) {
            self.notice = notice
            self.reject = reject
        }
    }

    /// At most this many rejected NDJSON lines are handed to ``Messages/reject``; the rest are counted.
    public static let rejectsShown = 20

    /// Where the session is read from.
    enum Storage {
        /// A log: the file named, or a version-1 store's log of the session (`file` is its path).
        case log(LogReader, file: String)
        /// A session of a segment store.
        case stored(StoredSession)
        /// NDJSON, read whole when first asked (`session`: the id asked for, if any).
        case ndjson(path: String, session: String?)
    }

    /// How a command takes what a path names.
    public enum Form: Sendable {
        /// Any input: NDJSON is read (state, blame, replay, diff, bisect).
        case events
        /// A log or a store's session: a file is opened as a log whatever
        /// it holds, and its reader says what is wrong with it (cat, export log).
        case logOrStore
        /// As ``logOrStore``, but an NDJSON file named with `--session` is
        /// refused as not a log or a store (info).
        case logOrStoreRefusingNDJSON
    }

    let storage: Storage
    /// The path as given.
    public let path: String
    /// The option that picks a session, named when the input holds several.
    let option: String
    let messages: Messages
    /// An NDJSON input's session, once read.
    var ndjsonEvents: (session: String, events: [Event])?

    init(_ storage: Storage, path: String, option: String, messages: Messages) {
        self.storage = storage
        self.path = path
        self.option = option
        self.messages = messages
    }

    /// Opens the session `path` names: a store's session (`session` is its
    /// id, a store without one is refused naming `option`), a log (whose
    /// session, when `session` is given, must be it) or NDJSON (read when
    /// first asked; rejected lines go to `messages`, at most ``rejectsShown``).
    /// `alongside`: the other side of a comparison; a session of the same
    /// segment store shares its reader.
    public static func open(_ path: String, session: String?, option: String = "--session", form: Form = .events,
                            alongside other: OneSession? = nil, messages: Messages = Messages()) throws(OneSessionError) -> OneSession {
        let kind = InputKind.of(path)
        if form != .events, session == nil, !kind.isDirectory {
            let reader: LogReader
            do { reader = try LogReader(path: path) } catch { throw .log(error) }
            return OneSession(.log(reader, file: path), path: path, option: option, messages: messages)
        }
        if kind.isDirectory {
            guard let session else {
                if !kind.isStore { throw .trouble(StoreLayout.notAStoreMessage(path)) }
                throw .trouble("\(path): is a directory (a store): choose one of its sessions with \(option) ID")
            }
            if let other, other.path == path, case .stored(let stored) = other.storage {
                do { return OneSession(.stored(try stored.sibling(session)), path: path, option: option, messages: messages) } catch {
                    throw .lookup(error)
                }
            }
            let found: SessionLookup.Found
            do { found = try SessionLookup.open(store: path, session: session) } catch { throw .lookup(error) }
            switch found {
            case .log(let file):
                let reader = try openLog(file, session: session, messages)
                return OneSession(.log(reader, file: file), path: path, option: option, messages: messages)
            case .segments(let stored):
                for damage in stored.damage { messages.notice(damage.description) }
                return OneSession(.stored(stored), path: path, option: option, messages: messages)
            }
        }
        if kind.isLog || form != .events {
            if form == .logOrStoreRefusingNDJSON && !kind.isLog {
                throw .trouble("\(InputName.shown(path)): not a .navlog log or a store")
            }
            if !kind.isLog {
                do { _ = try LogReader(path: path) } catch { throw .log(error) }
            }
            let reader = try openLog(path, session: session, messages)
            return OneSession(.log(reader, file: path), path: path, option: option, messages: messages)
        }
        return OneSession(.ndjson(path: path, session: session), path: path, option: option, messages: messages)
    }

    /// Opens a log, noting a torn tail (the events before it are read),
    /// refusing other damage and checking `session` against the session it holds.
    private static func openLog(_ path: String, session: String?, _ messages: Messages) throws(OneSessionError) -> LogReader {
        let reader: LogReader
        do { reader = try LogReader(path: path) } catch { throw .log(error) }
        if let damage = reader.damage {
            guard damage.isTornTail else { throw .damaged("\(path): \(damage)") }
            messages.notice("\(path): \(damage)")
        }
        if let session {
            let held: String?
            do { held = try reader.session() } catch { throw .log(error) }
            if let held, !SessionID.same(held, session) {
                throw .trouble("\(path): holds session \"\(held)\", not \"\(session)\"")
            }
        }
        return reader
    }

    /// Refuses a log that holds no events (made by appending nothing): it
    /// has no session to show a state of, as an empty NDJSON input.
    func requireEvents(_ reader: LogReader, _ file: String) throws(OneSessionError) {
        if reader.eventCount == 0 { throw .trouble("\(InputName.shown(file)): no events") }
    }
}

extension OneSessionError {
    /// A stored session's error, as a store's lookup says it.
    static func segments(_ error: SegmentStoreError) -> OneSessionError { .lookup(.segments(error)) }
}
