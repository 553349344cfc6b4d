#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A first-in first-out queue of at most `capacity` elements between one
/// producer thread and one consumer thread: `push` waits while it is full,
/// `pop` while it is empty. Closing it ends the consumer's loop; failing it
/// makes the producer's pushes return `false`.
final class BoundedQueue<Element: Sendable>: @unchecked Sendable {
    private var items: [Element?]
    private var head = 0
    private var count = 0
    private var closed = false
    private var failed = false
    private var mutex = pthread_mutex_t()
    private var notEmpty = pthread_cond_t()
    private var notFull = pthread_cond_t()

    init(capacity: Int) {
        items = Array(repeating: nil, count: max(capacity, 1))
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&notEmpty, nil)
        pthread_cond_init(&notFull, nil)
    }

    deinit {
        pthread_cond_destroy(&notFull)
        pthread_cond_destroy(&notEmpty)
        pthread_mutex_destroy(&mutex)
    }

    /// Adds an element, waiting for room; `false` when the consumer failed.
    func push(_ element: Element) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while count == items.count && !failed { pthread_cond_wait(&notFull, &mutex) }
        if failed { return false }
        items[(head + count) % items.count] = element
        count += 1
        pthread_cond_signal(&notEmpty)
        return true
    }

    /// The next element, waiting for one; `nil` once closed and drained.
    func pop() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        while count == 0 && !closed { pthread_cond_wait(&notEmpty, &mutex) }
        return takeHead()
    }

    /// The next element if there is one now, without waiting.
    func tryPop() -> Element? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return takeHead()
    }

    /// Removes and returns the oldest element, `nil` when empty; the caller
    /// holds the mutex.
    private func takeHead() -> Element? {
        guard count > 0 else { return nil }
        let element = items[head]
        items[head] = nil
        head = (head + 1) % items.count
        count -= 1
        pthread_cond_signal(&notFull)
        return element
    }

    /// Adds an element if there is room now, without waiting; `false` when
    /// full, failed or closed.
    func tryPush(_ element: Element) -> Bool {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard count < items.count, !failed, !closed else { return false }
        items[(head + count) % items.count] = element
        count += 1
        pthread_cond_signal(&notEmpty)
        return true
    }

    /// Elements waiting now, and whether the queue is closed.
    var snapshot: (count: Int, closed: Bool) {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        return (count, closed)
    }

    /// No more elements will come (producer side).
    func close() {
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&notEmpty)
        pthread_mutex_unlock(&mutex)
    }

    /// The consumer stopped: pushes return `false` from now on.
    func fail() {
        pthread_mutex_lock(&mutex)
        failed = true
        pthread_cond_broadcast(&notFull)
        pthread_mutex_unlock(&mutex)
    }
}
