#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NavLogCore

extension SessionStream {
    /// Counts every session of the stream into one tally: each worker
    /// counts the sources it takes (the next unread one, each time) into its
    /// own tally from `make`, and the workers' tallies are merged in worker
    /// order. The first failure in source order is thrown.
    public func tally<Tally: SessionTally>(_ make: () -> Tally) throws(SessionStreamError) -> Tally {
        var parts = try scan(keepsMarks: Tally.needsMarks, readsSessionStarts: make().readsSessionStarts, make: make, projected: { tally, session in tally.add(projected: session) }) {
            tally, session in tally.add(session)
        }
        var whole = parts.removeFirst()
        for part in parts { whole.merge(part) }
        return whole
    }

    /// Runs `body` over every session on ``workers`` threads, each with its
    /// own accumulator from `make`, and returns the accumulators (one a
    /// worker). One NDJSON file is read by all the workers at once, each a
    /// share of its sessions (``scanShares(_:keepsMarks:readsSessionStarts:make:_:)``). A store part whose screen projection covers it goes to
    /// `projected`, when given, read from the projection's columns (its
    /// `session.start` templates parsed only if `readsSessionStarts`; NDJSON's
    /// `session.start` objects likewise built only if it). The
    /// first failure in source order is thrown.
    func scan<Accumulator>(
        keepsMarks: Bool, readsSessionStarts: Bool = true, make: () -> Accumulator,
        projected: (@Sendable (inout Accumulator, ProjectedSession) -> Void)? = nil,
        _ body: @escaping @Sendable (inout Accumulator, SessionOccurrences) -> Void
    ) throws(SessionStreamError) -> [Accumulator] {
        if let path = sharedNDJSONFile {
            return try scanShares(path, keepsMarks: keepsMarks, readsSessionStarts: readsSessionStarts, make: make, body)
        }
        let shared = ScanState(sources: sources, accumulators: (0..<workers).map { _ in make() })
        DispatchQueue.concurrentPerform(iterations: shared.slots.count) { worker in
            let slot = shared.slots[worker]
            let scratch = LogScanScratch()
            let names = ScreenNameCache()
            while let (i, source) = shared.take() {
                if let projected, case .segments(let part) = source, let set = part.projection, let projection = set.shared(withTemplates: readsSessionStarts) {
                    set.forEachProjectedSession(of: part, projection) { session in projected(&slot.value, session) }
                    continue
                }
                do throws(SessionStreamError) {
                    try forEachSession(in: source, keepsMarks: keepsMarks, readsSessionStarts: readsSessionStarts,
                                       scratch: scratch, names: names) { session in
                        body(&slot.value, session)
                    }
                } catch {
                    shared.fail(at: i, error)
                }
            }
        }
        if let failure = shared.failure { throw failure.error }
        return shared.slots.map(\.value)
    }
}

/// The sources left to read, each worker's accumulator and the first
/// failure, shared by the scanning threads: ``take()`` and
/// ``fail(at:_:)`` lock; each slot is touched only by its own worker until
/// the scan ends.
private final class ScanState<Accumulator>: @unchecked Sendable {
    /// One worker's accumulator.
    final class Slot: @unchecked Sendable {
        var value: Accumulator
        init(_ value: Accumulator) { self.value = value }
    }

    let sources: [SessionSource]
    let slots: [Slot]
    private let progress = Locked<(next: Int, failure: (index: Int, error: SessionStreamError)?)>((0, nil))

    init(sources: [SessionSource], accumulators: [Accumulator]) {
        self.sources = sources
        slots = accumulators.map(Slot.init)
    }

    /// The first failure (by source index), once the scan ended.
    var failure: (index: Int, error: SessionStreamError)? { progress.withLock { $0.failure } }

    /// The next source to read, or `nil` when all are taken (or one failed).
    func take() -> (Int, SessionSource)? {
        progress.withLock { p in
            guard p.failure == nil, p.next < sources.count else { return nil }
            p.next += 1
            return (p.next - 1, sources[p.next - 1])
        }
    }

    func fail(at index: Int, _ error: SessionStreamError) {
        progress.withLock { p in
            if p.failure == nil || index < p.failure!.index { p.failure = (index, error) }
        }
    }
}
