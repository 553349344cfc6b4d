#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Where each session of an ingest or import is stored: its log in the
/// store when one holds it (continued from its last seq), else a free file
/// name claimed for it. Safe to use from several threads: each session is
/// placed once, under a lock, so two sessions never claim the same name.
final class LogLocator: @unchecked Sendable {
    /// A session's log.
    struct Placement {
        /// The log's path.
        var path: String
        /// The seq of its last stored event; 0 for a new log.
        var lastSeq: Int
        /// Whether the log did not exist before this run.
        var isNew: Bool
    }

    private let store: Store
    private var claimed: Set<String> = []
    private var created = 0
    private var mutex = pthread_mutex_t()

    init(store: Store) {
        self.store = store
        pthread_mutex_init(&mutex, nil)
    }

    deinit { pthread_mutex_destroy(&mutex) }

    /// The logs of the sessions placed so far.
    var paths: [String] {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return Array(claimed)
    }

    /// Of the sessions placed, those whose log did not exist before.
    var newLogs: Int {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return created
    }

    /// Places `session` (once per session: the caller remembers the answer).
    ///
    /// - Throws: ``LogError`` when the store cannot be looked in or the
    ///   existing log cannot be read.
    func place(_ session: String) throws(LogError) -> Placement {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        let (existing, free) = try store.locate(session, claimed: claimed)
        var placement = Placement(path: existing ?? free, lastSeq: 0, isNew: existing == nil)
        if let existing {
            placement.lastSeq = try LogReader(path: existing).lastSeq ?? 0
        } else {
            created += 1
        }
        claimed.insert(placement.path)
        return placement
    }
}
