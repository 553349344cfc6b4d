// Threads/: The lock (Locked), bounded queues, worker threads, the turnstile.

/// A first-in first-out queue of at most `capacity` elements between one
/// producer thread and one consumer thread: `push` waits while it is full,
/// `pop` while it is empty. Closing it ends the consumer's loop; failing it
/// makes the producer's pushes return `false`.
final class BoundedQueue<Element: Sendable>: Sendable {
    private struct Ring {
        var items: [Element?]
        var head = 0
        var count = 0
        var closed = false
        var failed = false

        var isFull: Bool { count == items.count }

        mutating func append(_ element: Element) {
            items[(head + count) % items.count] = element
            count += 1
        }

        /// Removes and returns the oldest element, `nil` when empty.
        mutating func takeHead() -> Element? {
            guard count > 0 else { return nil }
            let element = items[head]
            items[head] = nil
            head = (head + 1) % items.count
            count -= 1
            return element
        }
    }

    private let ring: Locked<Ring>

    init(capacity: Int) {
        ring = Locked(Ring(items: Array(repeating: nil, count: max(capacity, 1))))
    }

    /// Adds an element, waiting for room; `false` when the consumer failed.
    func push(_ element: Element) -> Bool {
        let pushed = ring.withLock(when: { !$0.isFull || $0.failed }) { ring -> Bool in
            if ring.failed { return false }
            ring.append(element)
            return true
        }
        if pushed { ring.broadcast() }
        return pushed
    }

    /// The next element, waiting for one; `nil` once closed and drained.
    func pop() -> Element? {
        let element = ring.withLock(when: { $0.count > 0 || $0.closed }) { $0.takeHead() }
        if element != nil { ring.broadcast() }
        return element
    }

    /// The next element if there is one now, without waiting.
    func tryPop() -> Element? {
        let element = ring.withLock { $0.takeHead() }
        if element != nil { ring.broadcast() }
        return element
    }

    /// Adds an element if there is room now, without waiting; `false` when
    /// full, failed or closed.
    func tryPush(_ element: Element) -> Bool {
        let pushed = ring.withLock { ring -> Bool in
            guard !ring.isFull, !ring.failed, !ring.closed else { return false }
            ring.append(element)
            return true
        }
        if pushed { ring.broadcast() }
        return pushed
    }

    /// Elements waiting now, and whether the queue is closed.
    var snapshot: (count: Int, closed: Bool) {
        ring.withLock { ($0.count, $0.closed) }
    }

    /// No more elements will come (producer side).
    func close() {
        ring.withLock { $0.closed = true }
        ring.broadcast()
    }

    /// The consumer stopped: pushes return `false` from now on.
    func fail() {
        ring.withLock { $0.failed = true }
        ring.broadcast()
    }
}
