#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A test's hold on a background thread: the thread stops at each
/// ``pass()`` until the test lets it through (``admit(upTo:)``), or until
/// the thread's owner opens it for good (``open()``) as it stops the thread.
/// Tests use it to catch a thread at a chosen point (``BackgroundSealer``:
/// before its first group of blocks, and between the blocks of a group).
final class ThreadTurnstile: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var changed = pthread_cond_t()
    /// Passes the thread came to, and how many of them it may go through.
    private var arrived = 0
    private var admitted = 0
    private var isOpen = false

    init() {
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&changed, nil)
    }

    deinit {
        pthread_cond_destroy(&changed)
        pthread_mutex_destroy(&mutex)
    }

    /// The thread's side: waits until this pass is admitted or the turnstile is open.
    func pass() {
        pthread_mutex_lock(&mutex)
        arrived += 1
        pthread_cond_broadcast(&changed)
        while arrived > admitted && !isOpen { pthread_cond_wait(&changed, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    /// Waits until the thread has come to its `count`th pass (or the turnstile is open).
    func waitUntilArrived(_ count: Int) {
        pthread_mutex_lock(&mutex)
        while arrived < count && !isOpen { pthread_cond_wait(&changed, &mutex) }
        pthread_mutex_unlock(&mutex)
    }

    /// Lets the thread through its first `count` passes.
    func admit(upTo count: Int) {
        pthread_mutex_lock(&mutex)
        admitted = max(admitted, count)
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }

    /// Lets the thread through every pass from now on.
    func open() {
        pthread_mutex_lock(&mutex)
        isOpen = true
        pthread_cond_broadcast(&changed)
        pthread_mutex_unlock(&mutex)
    }
}
