#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread running one closure, joined by ``join()``.
///
/// The closure is moved to the new thread, which owns it (and what it
/// captures) until it returns: what a thread reaches, it holds.
final class WorkerThread: @unchecked Sendable {
    private typealias Body = @Sendable () -> Void
    #if canImport(Darwin)
    private var thread: pthread_t?
    #else
    private var thread = pthread_t()
    #endif

    /// Starts `body` on a new thread.
    init(_ body: @escaping @Sendable () -> Void) {
        let cell = UnsafeMutablePointer<Body>.allocate(capacity: 1)
        cell.initialize(to: body)
        let status = pthread_create(&thread, nil, { raw in
            #if canImport(Darwin)
            let cell = raw.assumingMemoryBound(to: Body.self)
            #else
            let cell = raw!.assumingMemoryBound(to: Body.self)
            #endif
            let body = cell.move()
            cell.deallocate()
            body()
            return nil
        }, cell)
        precondition(status == 0, "pthread_create failed: \(status)")
    }

    /// Waits for the closure to return. Never called on the thread itself
    /// (it would wait for itself): that stops the process.
    func join() {
        #if canImport(Darwin)
        guard let thread else { return }
        #endif
        precondition(pthread_equal(thread, pthread_self()) == 0, "a worker thread cannot wait for itself to end")
        pthread_join(thread, nil)
    }
}
