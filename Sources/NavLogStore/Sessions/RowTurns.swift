/// Whose turn it is to write in ``SessionStream/writeRows(redactor:to:_:)``,
/// the buffers rendered ahead, buffers written and kept for reuse (so that
/// rendering does not touch fresh memory for every piece), and the first
/// failure; every member is used under the lock.
final class RowTurns: @unchecked Sendable {
    private let sources: [SessionSource]
    private let output: @Sendable ([UInt8]) -> Void
    private var nextToTake = 0
    /// The source whose rows are written next.
    private var turn = 0
    private var ready: [Int: (bytes: [UInt8], failure: SessionStreamError?)] = [:]
    /// Written buffers, emptied, for the next renderings.
    private var spares: [[UInt8]] = []
    /// The most buffers kept for reuse.
    private static let spareLimit = 4
    /// Set when the source at `turn` failed: nothing more is written.
    private var stopped: SessionStreamError?
    private let lock = Locked(())

    init(sources: [SessionSource], output: @escaping @Sendable ([UInt8]) -> Void) {
        self.sources = sources
        self.output = output
    }

    var failure: SessionStreamError? { lock.withLock { _ in stopped } }

    /// The next source, waiting while too many are rendered ahead; `nil` when done or stopped.
    func take() -> (Int, SessionSource)? {
        lock.withLock(when: { _ in
            stopped != nil || nextToTake >= sources.count || nextToTake - turn < SessionStream.aheadLimit
        }) { _ in
            guard stopped == nil, nextToTake < sources.count else { return nil }
            nextToTake += 1
            return (nextToTake - 1, sources[nextToTake - 1])
        }
    }

    /// An empty buffer to render into: one written before, when there is one.
    func spareBuffer() -> [UInt8] {
        lock.withLock { _ in spares.popLast() ?? [] }
    }

    /// A rendered source (its rows up to a failure, if any): written now if
    /// it is its turn (with any ready ones after it), else kept.
    func deposit(_ index: Int, _ bytes: [UInt8], failure: SessionStreamError?) {
        lock.withLock { _ in
            ready[index] = (bytes, failure)
            drain()
        }
    }

    /// Waits until every earlier source is written; `false` when stopped.
    func waitForTurn(_ index: Int) -> Bool {
        lock.withLock(when: { _ in stopped != nil || turn == index }) { _ in stopped == nil }
    }

    /// The source streamed at its turn is written; a failure stops the writing.
    func finishTurn(_ index: Int, failure: SessionStreamError?) {
        lock.withLock { _ in
            if let failure {
                stopped = failure
            } else {
                turn += 1
                drain()
            }
        }
        lock.broadcast()
    }

    /// Writes ready sources in order from `turn`; a failed one stops the
    /// writing after its rows. Under the lock.
    private func drain() {
        while stopped == nil, var rendered = ready.removeValue(forKey: turn) {
            output(rendered.bytes)
            if spares.count < Self.spareLimit, rendered.bytes.capacity > 0 {
                rendered.bytes.removeAll(keepingCapacity: true)
                spares.append(rendered.bytes)
            }
            if let failure = rendered.failure {
                stopped = failure
                break
            }
            turn += 1
        }
        lock.broadcast()
    }
}
