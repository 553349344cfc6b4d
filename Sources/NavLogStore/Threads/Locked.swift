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
/// `@unchecked Sendable` because `value` is only reached inside
/// ``withLock(_:)``. Not `Synchronization.Mutex`: that needs macOS 15 and
/// the package supports macOS 13. The mutex lives in allocated memory, where
/// it cannot move.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
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
}
