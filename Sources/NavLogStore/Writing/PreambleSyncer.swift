#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Syncs the preambles of new logs in one directory on a thread of its
/// own, for a process that creates many logs at once (`navlog ingest`,
/// `navlog import` into a store).
///
/// A new log's preamble must be durable before anything else is written to
/// the file (schemas/navlog-format.md §6). A ``LogWriter`` given a syncer
/// writes its preamble, hands the sync over, and goes on taking events in
/// memory; the blocks it seals before the sync is done (``Ticket/isDone``)
/// wait in memory, and it waits for the sync (``Ticket/wait()``) only to
/// sync or close. The thread syncs whatever has queued up
/// since its last round in one go (one `syncfs` on Linux, each file in
/// turn elsewhere), so hundreds of new logs cost a few syncs that no
/// writing thread waits for, instead of one `fdatasync` each in the way.
final class PreambleSyncer: @unchecked Sendable {
    /// A handed-over sync, to be waited for before the file is written again.
    struct Ticket {
        fileprivate let syncer: PreambleSyncer
        fileprivate let number: Int

        /// Returns once the preamble is durable.
        ///
        /// - Throws: ``LogError`` when a sync of this or an earlier round failed.
        func wait() throws(LogError) { try syncer.wait(for: number) }

        /// Whether ``wait()`` would return (or throw) at once.
        var isDone: Bool { syncer.isDone(number) }
    }

    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    /// Paths handed over and not yet taken by the thread.
    private var queued: [String] = []
    /// Tickets given out, and how many of them (from the first) are done.
    private var issued = 0
    private var done = 0
    private var failure: LogError?
    /// Threads waiting for a ticket now.
    private var waiters = 0
    private var stopping = false
    /// While held, the thread takes nothing (tests of the ordering).
    private var held = false
    private var thread: WorkerThread?
    /// The directory the logs are in.
    private let directory: String

    /// A syncer of logs in `directory`.
    init(directory: String) {
        self.directory = directory
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
        thread = WorkerThread { self.run() }
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// Hands over the sync of the file at `path` (in the syncer's directory),
    /// whose preamble was just written.
    func submit(_ path: String) -> Ticket {
        pthread_mutex_lock(&mutex)
        queued.append(path)
        issued += 1
        let ticket = Ticket(syncer: self, number: issued)
        // Only an empty queue has the thread waiting for a path: one that
        // is gathering more takes this one without being woken for it (a
        // wake-up, and a switch to the thread and back, a file).
        if queued.count == 1 { pthread_cond_broadcast(&changed) }
        pthread_mutex_unlock(&mutex)
        return ticket
    }

    /// Syncs what is still queued, then ends the thread. Call once, after
    /// the writers are done with it.
    func stop() {
        pthread_mutex_lock(&mutex)
        stopping = true
        held = false
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
        thread?.join()
        thread = nil
    }

    /// Keeps the thread from syncing until ``release()`` (for tests).
    func hold() { setHeld(true) }

    /// Lets the thread sync again.
    func release() { setHeld(false) }

    private func setHeld(_ value: Bool) {
        pthread_mutex_lock(&mutex)
        held = value
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    private func isDone(_ number: Int) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return done >= number || failure != nil
    }

    private func wait(for number: Int) throws(LogError) {
        pthread_mutex_lock(&mutex)
        if done < number && failure == nil {
            // Cuts a gathering round short.
            waiters += 1
            pthread_cond_broadcast(&changed)
            while done < number && failure == nil { pthread_cond_wait(&changed, &mutex) }
            waiters -= 1
        }
        let failure = failure
        pthread_mutex_unlock(&mutex)
        if let failure { throw failure }
    }

    private func run() {
        pthread_mutex_lock(&mutex)
        while true {
            while (queued.isEmpty || held) && !stopping { pthread_cond_wait(&changed, &mutex) }
            if queued.isEmpty { break }
            gather()
            let round = queued
            let upTo = issued
            queued.removeAll(keepingCapacity: true)
            pthread_mutex_unlock(&mutex)
            let error = sync(round)
            pthread_mutex_lock(&mutex)
            done = upTo
            if failure == nil { failure = error }
            pthread_cond_broadcast(&changed)
        }
        pthread_mutex_unlock(&mutex)
    }

    /// Lets more paths queue up, for up to ``gatheringMilliseconds``, unless
    /// someone waits or the syncer stops: a round's sync costs about the
    /// same for one file as for many. Called with the mutex held.
    private func gather() {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        deadline.tv_nsec += Self.gatheringMilliseconds * 1_000_000
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        while waiters == 0 && !stopping && !held {
            if pthread_cond_timedwait(&changed, &mutex, &deadline) == ETIMEDOUT { break }
        }
    }

    /// How long a round waits for more paths. A round costs a `syncfs`,
    /// which walks the file system's dirty files in the kernel (1–4 ms on
    /// the benchmark's machine); a writer that comes to wait cuts the
    /// gathering short, so a longer window only means fewer rounds (the
    /// ingest benchmark's 522 new logs: 112 rounds at 5 ms, 24–29 at 50 ms).
    static let gatheringMilliseconds = 50

    /// Makes the files durable: one `syncfs` of the directory's file system
    /// for several where there is one, else each file.
    private func sync(_ paths: [String]) -> LogError? {
        do throws(LogError) {
            if paths.count > 1, try LogFile.syncFileSystem(containing: directory) { return nil }
            for path in paths { try LogFile(path: path, mode: .read).sync() }
            return nil
        } catch {
            return error
        }
    }
}
