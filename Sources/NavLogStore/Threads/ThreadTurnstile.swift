/// A test's hold on a background thread: the thread stops at each
/// ``pass()`` until the test lets it through (``admit(upTo:)``), or until
/// the thread's owner opens it for good (``open()``) as it stops the thread.
/// Tests use it to catch a thread at a chosen point (``BackgroundSealer``:
/// before its first group of blocks, and between the blocks of a group).
final class ThreadTurnstile: Sendable {
    /// Passes the thread came to, and how many of them it may go through.
    private struct Passes { var arrived = 0, admitted = 0, isOpen = false }
    private let passes = Locked(Passes())

    init() {}

    /// The thread's side: waits until this pass is admitted or the turnstile is open.
    func pass() {
        passes.withLock { $0.arrived += 1 }
        passes.broadcast()
        passes.withLock(when: { $0.arrived <= $0.admitted || $0.isOpen }) { _ in }
    }

    /// Waits until the thread has come to its `count`th pass (or the turnstile is open).
    func waitUntilArrived(_ count: Int) {
        passes.withLock(when: { $0.arrived >= count || $0.isOpen }) { _ in }
    }

    /// Lets the thread through its first `count` passes.
    func admit(upTo count: Int) {
        passes.withLock { $0.admitted = max($0.admitted, count) }
        passes.broadcast()
    }

    /// Lets the thread through every pass from now on.
    func open() {
        passes.withLock { $0.isOpen = true }
        passes.broadcast()
    }
}
