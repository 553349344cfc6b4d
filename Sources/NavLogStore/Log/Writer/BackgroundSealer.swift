// Log/Writer/: Writing a `.navlog` log: the writer, its blocks, the background sealer, its options, what reopening a torn or damaged log did (`LogRecovery`).

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

    private let write: @Sendable (SealedBlock, _ endsGroup: Bool) throws(FileError) -> Void
    private var waiting: [SealedBlock] = []
    private var writing = false
    private var stopping = false
    private var failure: FileError?
    /// Line buffers of written blocks, for the appender's next blocks.
    private var spares: [ByteBuffer] = []
    /// Held for every member above.
    private let lock = Locked(())
    private var thread: WorkerThread?
    private let turnstile: ThreadTurnstile?

    init(turnstile: ThreadTurnstile? = nil, write: @escaping @Sendable (SealedBlock, _ endsGroup: Bool) throws(FileError) -> Void) {
        self.write = write
        self.turnstile = turnstile
        thread = WorkerThread { [self] in run() }
    }

    /// Queues a block, waiting while ``limit`` blocks wait; returns an
    /// earlier block's failure instead (the block is then dropped).
    func submit(_ block: SealedBlock) -> FileError? {
        let failed = lock.withLock(when: { _ in waiting.count < Self.limit || failure != nil }) { _ -> FileError? in
            if let failure { return failure }
            waiting.append(block)
            return nil
        }
        if failed == nil { lock.broadcast() }
        return failed
    }

    /// Waits until every queued block is written (and synced, as the policy
    /// says); returns the first failure.
    func drain() -> FileError? {
        lock.withLock(when: { _ in (waiting.isEmpty && !writing) || failure != nil }) { _ in failure }
    }

    /// An emptied line buffer of a written block, if one is free.
    func spareBuffer() -> ByteBuffer? {
        lock.withLock { _ in spares.popLast() }
    }

    /// Writes what is queued, ends the thread and waits for it; returns the
    /// first failure.
    func stop() -> FileError? {
        lock.withLock { _ in stopping = true }
        lock.broadcast()
        turnstile?.open()
        thread?.join()
        thread = nil
        return lock.withLock { _ in failure }
    }

    private func run() {
        turnstile?.pass()
        while true {
            let taken = lock.withLock(when: { _ in !waiting.isEmpty || stopping }) { _ -> (group: [SealedBlock], failed: Bool)? in
                if waiting.isEmpty { return nil }
                let group = waiting
                waiting.removeAll(keepingCapacity: true)
                writing = true
                return (group, failure != nil)
            }
            guard let (group, failedBefore) = taken else { break }
            lock.broadcast()
            var failed = failedBefore
            var error: FileError?
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
            lock.withLock { _ in
                writing = false
                if let error, failure == nil { failure = error }
                for block in group where spares.count < Self.limit + 1 { spares.append(block.lines) }
            }
            lock.broadcast()
        }
    }
}
