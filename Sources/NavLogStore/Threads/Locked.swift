#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared by threads, every access to it under one pthread mutex.
///
/// ```swift
/// let next = Locked(0)
/// let mine = next.withLock { n in defer { n += 1 }; return n }
/// ```
///
/// A thread can also wait, the mutex released meanwhile, until the value
/// is as it needs (``withLock(when:_:)``); a thread that changes what others
/// wait for calls ``broadcast()``.
///
/// `@unchecked Sendable` because `value` is only reached inside
/// ``withLock(_:)``. Not `Synchronization.Mutex`: that needs macOS 15 and
/// the package supports macOS 13. The mutex lives in allocated memory, where
/// it cannot move.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let changed: UnsafeMutablePointer<pthread_cond_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
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
    }

    /// Runs `body` on the value with the mutex held.
    @inline(__always)
    package func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }

    /// Waits until `ready` holds of the value, then runs `body` on it; the
    /// mutex is held for both, and released while waiting.
    package func withLock<Result, Failure: Error>(
        when ready: (Value) -> Bool, _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while !ready(value) { pthread_cond_wait(changed, mutex) }
        return try body(&value)
    }

    /// Wakes every thread waiting in ``withLock(when:_:)`` to look again.
    package func broadcast() { pthread_cond_broadcast(changed) }
}
