import NavLogCore

/// The rejected lines of one NDJSON input read in several shares
/// (``NDJSONShare``) at once, reported as one reader would report them:
/// each once, in line order, numbered from 1. A share hands in its
/// rejections and how far it has read; a rejection is reported once every
/// other share has read past its line (no earlier one can come), so a
/// share that runs ahead keeps at most ``pendingLimit`` waiting and then
/// waits for the others.
///
/// ```swift
/// let order = RejectionOrder(path: "in.ndjson", shares: 2, onNote: onNote)
/// order.reject(share: 1, line: 7, reason)   // reported when share 0 passes line 7
/// order.finish(share: 0)                    // share 0 has read its last line
/// ```
///
/// Every share must run on a thread of its own (a share that waits needs
/// the others to move), and end with ``finish(share:)``, failed or not.
final class RejectionOrder: Sendable {
    /// Rejections a share keeps waiting before it waits itself.
    static let pendingLimit = 4096

    private struct State {
        /// Each share's rejections not yet reported, in line order, from `heads[share]`.
        var pending: [[(line: Int, reason: EventParseError)]]
        var heads: [Int]
        /// The last line each share has read (`Int.max` once it ended).
        var read: [Int]
        /// Rejections reported so far.
        var reported = 0
    }

    let path: String
    private let onNote: @Sendable (SessionStream.Note) -> Void
    private let state: Locked<State>

    init(path: String, shares: Int, onNote: @escaping @Sendable (SessionStream.Note) -> Void) {
        self.path = path
        self.onNote = onNote
        state = Locked(State(pending: Array(repeating: [], count: shares), heads: Array(repeating: 0, count: shares),
                             read: Array(repeating: 0, count: shares)))
    }

    /// Rejections reported, all of them once every share has finished.
    var count: Int { state.withLock { $0.reported } }

    /// Share `share` rejected `line` (it has read up to it): reported in its
    /// turn. Waits while the share has ``pendingLimit`` rejections waiting.
    func reject(share: Int, line: Int, _ reason: EventParseError) {
        state.withLock { s in
            s.pending[share].append((line, reason))
            s.read[share] = line
            report(&s)
        }
        state.broadcast()
        state.withLock(when: { $0.pending[share].count - $0.heads[share] < Self.pendingLimit }) { _ in }
    }

    /// Share `share` has read every line up to `line`.
    func passed(share: Int, line: Int) {
        state.withLock { s in
            s.read[share] = line
            report(&s)
        }
        state.broadcast()
    }

    /// Share `share` has ended (read its last line, or failed).
    func finish(share: Int) { passed(share: share, line: .max) }

    /// After every share has ended: throws ``SessionStreamError/rejectedLines(path:count:)`` when lines were rejected.
    func end() throws(SessionStreamError) {
        let count = self.count
        if count > 0 { throw .rejectedLines(path: path, count: count) }
    }

    /// Reports every rejection no share can come before.
    private func report(_ s: inout State) {
        while true {
            var first: Int?
            for share in s.pending.indices where s.heads[share] < s.pending[share].count {
                if first.map({ s.pending[share][s.heads[share]].line < s.pending[$0][s.heads[$0]].line }) ?? true { first = share }
            }
            guard let share = first else { return }
            let (line, reason) = s.pending[share][s.heads[share]]
            guard s.read.indices.allSatisfy({ $0 == share || s.read[$0] >= line }) else { return }
            s.heads[share] += 1
            if s.heads[share] == s.pending[share].count || s.heads[share] >= Self.pendingLimit {
                s.pending[share].removeFirst(s.heads[share])
                s.heads[share] = 0
            }
            s.reported += 1
            onNote(.rejected(RejectedLine(file: path, line: line, reason: reason), ordinal: s.reported))
        }
    }
}
