/// The rows of one NDJSON input exported in several shares
/// (``NDJSONShare``) at once, written as one reader writes them: in line
/// order. The input's lines are cut into chunks of ``chunkLines``; each
/// share renders the rows of its lines in a chunk into a ``Chunk`` (each
/// line's rows marked with its number) and hands it in, and a chunk is
/// written once every share has handed it in (or ended), the shares' rows
/// merged by line. A share more than ``aheadLimit`` chunks ahead of the
/// writing waits, so memory stays bounded.
///
/// ```swift
/// let merge = ShareRowMerge(shares: 2, output: output)
/// merge.deposit(share: 1, chunk: 0, rendered)   // written once share 0 hands in chunk 0 too
/// merge.finish(share: 1, failure: nil)          // share 1 has no more chunks
/// ```
///
/// Every share must run on a thread of its own and end with
/// ``finish(share:failure:)``. A share that waits here has told its
/// ``RejectionOrder`` it passed its chunk's lines (``chunkLines`` is a
/// multiple of its reports' step, or the input is too small for any
/// share to wait there), so neither waits on the other forever.
final class ShareRowMerge: Sendable {
    /// Lines a chunk covers by default: a multiple of 4096, the step at
    /// which a share tells its ``RejectionOrder`` how far it has read.
    static let defaultChunkLines = 1 << 14
    /// Chunks a share may render ahead of the one written next.
    static let aheadLimit = 16

    /// A share's rows of one chunk: `bytes`, and for each line that made
    /// rows, its number and where its rows end in `bytes`, in line order.
    struct Chunk {
        var bytes: [UInt8] = []
        var lines: [(number: Int, end: Int)] = []

        var isEmpty: Bool { lines.isEmpty }

        /// Appends what `render` writes as the rows of line `number`.
        @inline(__always)
        mutating func add(line number: Int, _ render: (inout [UInt8]) -> Void) {
            let start = bytes.count
            render(&bytes)
            if bytes.count > start { lines.append((number, bytes.count)) }
        }
    }

    private struct State {
        /// Each share's chunks handed in and not yet written, by chunk index.
        var ready: [[Int: Chunk]]
        /// Whether each share has ended (its later chunks are empty).
        var ended: [Bool]
        /// The index of the chunk written next.
        var next = 0
        /// The first failure: nothing is written after it.
        var failure: SessionStreamError?
        /// Written chunks, emptied, for the next renderings.
        var spares: [Chunk] = []
        /// The merged bytes of the chunk being written, kept for its storage.
        var merged: [UInt8] = []
    }

    /// Lines a chunk covers (tests make small chunks of small inputs).
    let chunkLines: Int
    private let output: @Sendable ([UInt8]) -> Void
    private let state: Locked<State>

    init(shares: Int, chunkLines: Int = ShareRowMerge.defaultChunkLines, output: @escaping @Sendable ([UInt8]) -> Void) {
        self.chunkLines = chunkLines
        self.output = output
        state = Locked(State(ready: Array(repeating: [:], count: shares), ended: Array(repeating: false, count: shares)))
    }

    /// The first failure handed in.
    var failure: SessionStreamError? { state.withLock { $0.failure } }

    /// The chunk index of line `number` (from 1).
    @inline(__always)
    func chunk(of number: Int) -> Int { (number - 1) / chunkLines }

    /// An empty chunk to render into: one written before, when there is one.
    func spareChunk() -> Chunk { state.withLock { $0.spares.popLast() ?? Chunk() } }

    /// Share `share`'s rows of chunk `index` (handed in in index order):
    /// written when every share has them. Unless it is the share's last
    /// (`waits: false`), waits while the share is ``aheadLimit`` chunks
    /// ahead of the writing. After a failure nothing more is kept.
    func deposit(share: Int, chunk index: Int, _ chunk: Chunk, waits: Bool = true) {
        state.withLock { s in
            guard s.failure == nil else { return }
            s.ready[share][index] = chunk
            drain(&s)
        }
        state.broadcast()
        guard waits else { return }
        state.withLock(when: { $0.failure != nil || index - $0.next < Self.aheadLimit }) { _ in }
    }

    /// Share `share` has handed in its last chunk (or failed with `failure`).
    func finish(share: Int, failure: SessionStreamError?) {
        state.withLock { s in
            s.ended[share] = true
            if let failure, s.failure == nil { s.failure = failure }
            drain(&s)
        }
        state.broadcast()
    }

    /// Writes every chunk that every share has handed in (or ended
    /// before), in order. Under the lock. A share hands in every chunk from
    /// 0 up to its last, empty ones too.
    private func drain(_ s: inout State) {
        while s.failure == nil {
            var any = false
            for share in s.ready.indices {
                if s.ready[share][s.next] != nil {
                    any = true
                } else if !s.ended[share] {
                    return
                }
            }
            guard any else { return }
            let parts = s.ready.indices.compactMap { s.ready[$0].removeValue(forKey: s.next) }
            write(parts, &s)
            s.next += 1
        }
    }

    /// Writes the shares' rows of one chunk merged by line, and keeps their storage.
    private func write(_ parts: [Chunk], _ s: inout State) {
        let filled = parts.filter { !$0.isEmpty }
        if filled.count == 1 {
            output(filled[0].bytes)
        } else if filled.count > 1 {
            s.merged.removeAll(keepingCapacity: true)
            var at = Array(repeating: 0, count: parts.count)
            while true {
                // The part whose next line comes first, and the line after which another part's comes.
                var first = -1
                for p in parts.indices where at[p] < parts[p].lines.count {
                    if first < 0 || parts[p].lines[at[p]].number < parts[first].lines[at[first]].number { first = p }
                }
                guard first >= 0 else { break }
                var until = Int.max
                for p in parts.indices where p != first && at[p] < parts[p].lines.count {
                    until = min(until, parts[p].lines[at[p]].number)
                }
                let part = parts[first]
                let start = at[first] == 0 ? 0 : part.lines[at[first] - 1].end
                var i = at[first]
                while i < part.lines.count, part.lines[i].number < until { i += 1 }
                s.merged.append(contentsOf: part.bytes[start..<part.lines[i - 1].end])
                at[first] = i
            }
            output(s.merged)
        }
        for var chunk in parts where s.spares.count < Self.aheadLimit {
            chunk.bytes.removeAll(keepingCapacity: true)
            chunk.lines.removeAll(keepingCapacity: true)
            s.spares.append(chunk)
        }
    }
}
