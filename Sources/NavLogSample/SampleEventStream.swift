/// The events of a ``SampleGenerator``, one at a time: session after
/// session, or (with ``SampleGenerator/Options/interleave``) merged by time
/// the way a collector receives them.
///
/// Interleaving keeps at most ``SampleGenerator/Options/liveSessions``
/// sessions under way and always hands out the earliest next event among
/// them (ties by session order). A session joins when its start is due; if
/// all live slots are taken it joins as soon as one frees up, so its first
/// events then arrive late, as from a client that was offline. Either way
/// every session's events keep their own order.
public struct SampleEventStream: IteratorProtocol, Sequence {
    private let generator: SampleGenerator
    private var nextIndex = 0

    /// Sequential mode: the session being read.
    private var current: SampleSession?

    /// Interleaved mode: live sessions, each with its next event.
    private var slots: [SampleSession] = []
    private var heads: [Event] = []
    /// A binary min-heap of slot indices by (next event time, session index).
    private var heap: [Int] = []
    private var freeSlots: [Int] = []
    /// The next session to join, made early to read its start time.
    private var waiting: SampleSession?

    init(_ generator: SampleGenerator) {
        self.generator = generator
    }

    /// The next event, or `nil` after the last one.
    public mutating func next() -> Event? {
        generator.options.interleave ? nextInterleaved() : nextInOrder()
    }

    private mutating func nextInOrder() -> Event? {
        while true {
            if current != nil, let event = current!.next() { return event }
            guard nextIndex < generator.count else { return nil }
            current = generator.session(at: nextIndex)
            nextIndex += 1
        }
    }

    private mutating func nextInterleaved() -> Event? {
        admitDueSessions()
        guard let top = heap.first else { return nil }
        let event = heads[top]
        if let following = slots[top].next() {
            heads[top] = following
        } else {
            freeSlots.append(top)
            heap[0] = heap[heap.count - 1]
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
        return event
    }

    /// Lets sessions join while there is room and their start is not after
    /// the earliest pending event.
    private mutating func admitDueSessions() {
        while heap.count < generator.options.liveSessions {
            if waiting == nil {
                guard nextIndex < generator.count else { return }
                waiting = generator.session(at: nextIndex)
                nextIndex += 1
            }
            if let top = heap.first, waiting!.start > heads[top].t { return }
            var session = waiting!
            waiting = nil
            guard let first = session.next() else { continue }
            let slot: Int
            if let free = freeSlots.popLast() {
                slot = free
                slots[slot] = session
                heads[slot] = first
            } else {
                slot = slots.count
                slots.append(session)
                heads.append(first)
            }
            heap.append(slot)
            siftUp(heap.count - 1)
        }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        let ta = heads[a].t, tb = heads[b].t
        return ta != tb ? ta < tb : slots[a].index < slots[b].index
    }

    private mutating func siftUp(_ i: Int) {
        var child = i
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ i: Int) {
        var parent = i
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var least = left
            if left + 1 < heap.count, precedes(heap[left + 1], heap[left]) { least = left + 1 }
            guard precedes(heap[least], heap[parent]) else { return }
            heap.swapAt(least, parent)
            parent = least
        }
    }
}
