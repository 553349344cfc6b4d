#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A writer's thread for sealed blocks (``LogWriterOptions/sealsInBackground``):
/// it runs each block through `write` (compress, write, sync), in the order
/// they were sealed, while the appending thread goes on. Blocks that queued
/// up while it was busy are written one after another and synced together
/// (`write`'s second argument says which block ends the group).
///
/// At most ``limit`` blocks wait, so memory stays bounded and the appender
/// waits when the disk is slower than it. After a block fails, later blocks
/// are not written (the file must end where the failure left it) and every
/// ``submit(_:)`` and ``drain()`` returns the failure.
///
/// The thread reaches only this object and what `write` captures, which it
/// owns: never the ``LogWriter``, whose last reference therefore never goes
/// on this thread. The writer stops the thread (``stop()``, which waits for
/// it) before it goes away.
///
/// A test may hold the thread with a ``ThreadTurnstile``: it passes it
/// before its first group of blocks, and between the blocks of a group.
final class BackgroundSealer: @unchecked Sendable {
    /// Blocks that may wait behind the one being written.
    static let limit = 2

    private let write: @Sendable (SealedBlock, _ endsGroup: Bool) throws(LogError) -> Void
    private var waiting: [SealedBlock] = []
    private var writing = false
    private var stopping = false
    private var failure: LogError?
    /// Line buffers of written blocks, for the appender's next blocks.
    private var spares: [ByteBuffer] = []
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    private var thread: WorkerThread?
    private let turnstile: ThreadTurnstile?

    init(turnstile: ThreadTurnstile? = nil, write: @escaping @Sendable (SealedBlock, _ endsGroup: Bool) throws(LogError) -> Void) {
        self.write = write
        self.turnstile = turnstile
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        thread = WorkerThread { [self] in run() }
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Queues a block, waiting while ``limit`` blocks wait; returns an
    /// earlier block's failure instead (the block is then dropped).
    func submit(_ block: SealedBlock) -> LogError? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while waiting.count >= Self.limit && failure == nil { pthread_cond_wait(&changed, &mutex) }
        if let failure { return failure }
        waiting.append(block)
        pthread_cond_broadcast(&changed)
        return nil
    }

    /// Waits until every queued block is written (and synced, as the policy
    /// says); returns the first failure.
    func drain() -> LogError? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while (!waiting.isEmpty || writing) && failure == nil { pthread_cond_wait(&changed, &mutex) }
        return failure
    }

    /// An emptied line buffer of a written block, if one is free.
    func spareBuffer() -> ByteBuffer? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return spares.popLast()
    }

    /// Writes what is queued, ends the thread and waits for it; returns the
    /// first failure.
    func stop() -> LogError? {
        pthread_mutex_lock(&mutex)
        stopping = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        turnstile?.open()
        thread?.join()
        thread = nil
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return failure
    }

    private func run() {
        turnstile?.pass()
        pthread_mutex_lock(&mutex)
        while true {
            while waiting.isEmpty && !stopping { pthread_cond_wait(&changed, &mutex) }
            if waiting.isEmpty { break }
            let group = waiting
            waiting.removeAll(keepingCapacity: true)
            var failed = failure != nil
            writing = true
            pthread_cond_broadcast(&changed)
            pthread_mutex_unlock(&mutex)
            var error: LogError?
            for (k, block) in group.enumerated() {
                if k > 0 { turnstile?.pass() }
                if !failed {
                    do { try write(block, k == group.count - 1) } catch let e {
                        error = e
                        failed = true
                    }
                }
                block.lines.removeAll()
            }
            pthread_mutex_lock(&mutex)
            writing = false
            if let error, failure == nil { failure = error }
            for block in group where spares.count < Self.limit + 1 { spares.append(block.lines) }
            pthread_cond_broadcast(&changed)
        }
        pthread_mutex_unlock(&mutex)
    }
}
