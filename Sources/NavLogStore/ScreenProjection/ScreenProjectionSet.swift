#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import NavLogCore

/// The screen projection of the commits a reader of a segment store reads
/// (schemas/screen-projection.md §5), loaded on first use, once, by
/// whichever part of the store asks first: a block for each commit when
/// every one of them is covered by an intact block, else nothing (the
/// reader reads the events).
package final class ScreenProjectionSet: @unchecked Sendable {
    /// One segment as the reader sees it: its number and its commits read, in order.
    struct Segment: Hashable, Sendable {
        var number: Int
        var commits: [CommitID]
    }

    /// A commit as its block names it: its number and the offset of its `NLCI` frame.
    struct CommitID: Hashable, Sendable {
        var number: UInt64
        var indexOffset: Int64
    }

    let store: String
    let segments: [Segment]
    /// The blocks once loaded (`nil` inside: not covered), their sessions'
    /// key hashes (made while checking their order), and whether with their templates.
    private let state = Locked<(blocks: ScreenProjectionBlocks?, hashes: [[UInt64]], withTemplates: Bool)?>(nil)

    /// The projection of the first `commits` commits of `catalog`'s store.
    init(catalog: SegmentCatalog, commits: Int) {
        store = catalog.store.path
        var segments: [Segment] = []
        for ref in catalog.commits.prefix(commits) {
            let contents = catalog.segments[ref.segment].contents
            if segments.last?.number != contents.number { segments.append(Segment(number: contents.number, commits: [])) }
            segments[segments.count - 1].commits.append(CommitID(number: contents.commits[ref.commit].number,
                                                                 indexOffset: contents.indexLocations[ref.commit].offset))
        }
        self.segments = segments
    }

    /// A block for each commit read, in store order, with their `session.start` templates; `nil` when one is not covered.
    var blocks: [ScreenProjectionBlock]? { shared(withTemplates: true)?.blocks }

    /// The blocks, shared by reference, loaded once by the first reader to
    /// ask (again by one that needs the `session.start` templates the first did not).
    func shared(withTemplates: Bool) -> ScreenProjectionBlocks? {
        state.withLock { state in
            if let state, state.withTemplates || !withTemplates { return state.blocks }
            let loaded = load(withTemplates: withTemplates)
            let blocks = loaded.map { ScreenProjectionBlocks($0.blocks) }
            state = (blocks, loaded?.hashes ?? [], withTemplates)
            return blocks
        }
    }

    /// The key hashes of each loaded block's sessions, in block order (empty before loading).
    var keyHashes: [[UInt64]] { state.withLock { $0?.hashes ?? [] } }

    /// Reads every segment's file, two at a time.
    private func load(withTemplates: Bool) -> (blocks: [ScreenProjectionBlock], hashes: [[UInt64]])? {
        guard !segments.isEmpty else { return nil }
        let results = ResultSlots<(blocks: [ScreenProjectionBlock], hashes: [[UInt64]])?>(count: segments.count)
        DispatchQueue.concurrentPerform(iterations: min(SessionStream.defaultWorkers, segments.count)) { worker in
            var i = worker
            while i < segments.count {
                results.set(i, Self.covering(segments[i], store: store, withTemplates: withTemplates))
                i += SessionStream.defaultWorkers
            }
        }
        var all: [ScreenProjectionBlock] = [], hashes: [[UInt64]] = []
        for i in segments.indices {
            guard let slot = results.value(i), let covered = slot else { return nil }
            all += covered.blocks
            hashes += covered.hashes
        }
        return (all, hashes)
    }

    /// The blocks of `segment`'s file covering its commits read; `nil` when
    /// the file is missing, damaged before them, or does not cover them.
    /// Their key order is checked on two threads; with them, their sessions' key hashes.
    static func covering(_ segment: Segment, store: String,
                         withTemplates: Bool = true) -> (blocks: [ScreenProjectionBlock], hashes: [[UInt64]])? {
        guard let file = try? ScreenProjectionFile.read(store: store, segment: segment.number, withTemplates: withTemplates),
              file.blocks.count >= segment.commits.count else { return nil }
        for (block, commit) in zip(file.blocks, segment.commits) {
            guard block.commit == commit.number, block.indexOffset == commit.indexOffset else { return nil }
        }
        let blocks = Array(file.blocks.prefix(segment.commits.count))
        let ordered = ResultSlots<[UInt64]?>(count: blocks.count)
        let workers = SessionStream.defaultWorkers
        DispatchQueue.concurrentPerform(iterations: min(workers, blocks.count)) { worker in
            for i in stride(from: worker, to: blocks.count, by: workers) { ordered.set(i, keyHashes(blocks[i])) }
        }
        var hashes: [[UInt64]] = []
        for i in blocks.indices {
            guard let slot = ordered.value(i), let inOrder = slot else { return nil }
            hashes.append(inOrder)
        }
        return (blocks, hashes)
    }

    /// The key hashes of a block's sessions when they are in strictly
    /// increasing session-key order (``SessionKey``: hash, then id bytes), else `nil`.
    static func keyHashes(_ block: ScreenProjectionBlock) -> [UInt64]? {
        var hashes: [UInt64] = []
        hashes.reserveCapacity(block.sessionCount)
        var inOrder = true
        block.forEachSessionID { i, id in
            let hash = XXHash64.hash(UnsafeRawBufferPointer(id))
            if let last = hashes.last, hash < last || (hash == last && !block.sessionID(i - 1).lexicographicallyPrecedes(id)) {
                inOrder = false
            }
            hashes.append(hash)
        }
        return inOrder ? hashes : nil
    }
}

/// Equal when of the same commits of the same store (whether loaded or not).
extension ScreenProjectionSet: Hashable {
    package static func == (a: ScreenProjectionSet, b: ScreenProjectionSet) -> Bool { a.store == b.store && a.segments == b.segments }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(store)
        hasher.combine(segments)
    }
}

/// Results filled in by several threads, each slot by one.
final class ResultSlots<Value>: Sendable {
    private let values: Locked<[Value?]>

    init(count: Int) { values = Locked(Array(repeating: nil, count: count)) }

    func set(_ i: Int, _ value: Value) { values.withLock { $0[i] = value } }

    func value(_ i: Int) -> Value? { values.withLock { $0[i] } }
}
