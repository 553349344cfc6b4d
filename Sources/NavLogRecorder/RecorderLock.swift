#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A mutex with two condition variables (pthread), for the recorder's
/// hand-off between callers and its writer thread.
///
/// `Synchronization.Mutex` needs macOS 15 / iOS 18 and has no condition
/// variable, so this small wrapper is used on every platform.
final class RecorderLock: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled when work arrives for the writer thread.
    private let work: UnsafeMutablePointer<pthread_cond_t>
    /// Broadcast when the writer made room or progress (space, durability).
    private let progress: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        work = .allocate(capacity: 1)
        progress = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(work, nil)
        pthread_cond_init(progress, nil)
    }

    deinit {
        pthread_cond_destroy(progress)
        pthread_cond_destroy(work)
        pthread_mutex_destroy(mutex)
        progress.deallocate()
        work.deallocate()
        mutex.deallocate()
    }

    @inline(__always) func lock() { pthread_mutex_lock(mutex) }
    @inline(__always) func unlock() { pthread_mutex_unlock(mutex) }

    /// Waits for work (lock held); returns after a signal, or after
    /// `milliseconds` when given.
    func waitForWork(milliseconds: Int?) {
        guard let milliseconds else {
            pthread_cond_wait(work, mutex)
            return
        }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var nanos = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + milliseconds / 1000 + nanos / 1_000_000_000
        nanos %= 1_000_000_000
        deadline.tv_nsec = .init(nanos)
        pthread_cond_timedwait(work, mutex, &deadline)
    }

    func signalWork() { pthread_cond_signal(work) }
    func waitForProgress() { pthread_cond_wait(progress, mutex) }
    func broadcastProgress() { pthread_cond_broadcast(progress) }
}
