#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared by threads, every access to it under one pthread mutex:
/// navlog's one lock type.
///
/// ```swift
/// let next = Locked(0)
/// let mine = next.withLock { n in defer { n += 1 }; return n }
/// ```
///
/// A thread can also wait, the mutex released meanwhile, until the value
/// is as it needs (``withLock(when:_:)``, or with a time limit
/// ``withLock(when:milliseconds:_:)``); a thread that changes what others
/// wait for calls ``broadcast()``.
///
/// The mutex, the condition variable and the value each live in allocated
/// memory, where they cannot move and where every access to the value is a
/// plain memory access under the mutex: a stored property of a generic
/// class would be reached through its metadata, an access ThreadSanitizer
/// cannot tell apart from the object's other fields. `@unchecked Sendable`
/// because the value is only reached with the mutex held. Not
/// `Synchronization.Mutex`: that needs macOS 15 and has no condition
/// variable, and the package supports macOS 13.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private let value: UnsafeMutablePointer<Value>

    package init(_ initial: Value) {
        value = .allocate(capacity: 1)
        value.initialize(to: initial)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        changed = .allocate(capacity: 1)
        changed.initialize(to: pthread_cond_t())
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        changed.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` on the value with the mutex held.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }

    /// Waits until `ready` holds of the value, then runs `body` on it; the
    /// mutex is held for both, and released while waiting.
    package func withLock<Result, Failure: Error>(
        when ready: (borrowing Value) -> Bool, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value.pointee) { pthread_cond_wait(changed, mutex) }
        return try body(&value.pointee)
    }

    /// As ``withLock(when:_:)``, but waits at most about `milliseconds`
    /// (from the call): `body` then runs whether or not `ready` holds.
    package func withLock<Result, Failure: Error>(
        when ready: (borrowing Value) -> Bool, milliseconds: Int, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanos = Int(now.tv_nsec) + (milliseconds % 1000) * 1_000_000
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + milliseconds / 1000 + nanos / 1_000_000_000
        deadline.tv_nsec = .init(nanos % 1_000_000_000)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value.pointee) {
            if pthread_cond_timedwait(changed, mutex, &deadline) == ETIMEDOUT { break }
        }
        return try body(&value.pointee)
    }

    /// Wakes every thread waiting in ``withLock(when:_:)`` to look again.
    package func broadcast() { pthread_cond_broadcast(changed) }
}
