#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whose turn it is to write in ``SessionStream/writeRows(redactor:to:_:)``,
/// the buffers rendered ahead, and the first failure; every member is used
/// under the lock.
final class RowTurns: @unchecked Sendable {
    private let sources: [SessionSource]
    private let output: @Sendable ([UInt8]) -> Void
    private var nextToTake = 0
    /// The source whose rows are written next.
    private var turn = 0
    private var ready: [Int: ([UInt8], SessionStreamError?)] = [:]
    /// Set when the source at `turn` failed: nothing more is written.
    private var stopped: SessionStreamError?
    private var lock = pthread_mutex_t()
    private var changed = pthread_cond_t()

    init(sources: [SessionSource], output: @escaping @Sendable ([UInt8]) -> Void) {
        self.sources = sources
        self.output = output
        pthread_mutex_init(&lock, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&lock)
    }

    var failure: SessionStreamError? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        return stopped
    }

    /// The next source, waiting while too many are rendered ahead; `nil` when done or stopped.
    func take() -> (Int, SessionSource)? {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        while stopped == nil, nextToTake < sources.count, nextToTake - turn >= SessionStream.aheadLimit {
            pthread_cond_wait(&changed, &lock)
        }
        guard stopped == nil, nextToTake < sources.count else { return nil }
        nextToTake += 1
        return (nextToTake - 1, sources[nextToTake - 1])
    }

    /// A rendered source (its rows up to a failure, if any): written now if
    /// it is its turn (with any ready ones after it), else kept.
    func deposit(_ index: Int, _ bytes: [UInt8], failure: SessionStreamError?) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        ready[index] = (bytes, failure)
        drain()
    }

    /// Waits until every earlier source is written; `false` when stopped.
    func waitForTurn(_ index: Int) -> Bool {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        while stopped == nil, turn != index { pthread_cond_wait(&changed, &lock) }
        return stopped == nil
    }

    /// The source streamed at its turn is written; a failure stops the writing.
    func finishTurn(_ index: Int, failure: SessionStreamError?) {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        if let failure {
            stopped = failure
        } else {
            turn += 1
            drain()
        }
        pthread_cond_broadcast(&changed)
    }

    /// Writes ready sources in order from `turn`; a failed one stops the
    /// writing after its rows. Under the lock.
    private func drain() {
        while stopped == nil, let (bytes, failure) = ready.removeValue(forKey: turn) {
            output(bytes)
            if let failure {
                stopped = failure
                break
            }
            turn += 1
        }
        pthread_cond_broadcast(&changed)
    }
}
