import NavLogCore

/// The committed contents of a store's segments, as its reader and its
/// writer see them: every commit index in store order, and a session's
/// lines found through them (schemas/segment-store.md §5.3, §9).
final class SegmentCatalog {
    /// One segment: its file (open for reading) and what it holds.
    struct Segment {
        var file: OpenFile
        var contents: SegmentContents
    }

    /// Where a commit is: segment (index into ``segments``) and commit within it.
    struct CommitRef: Hashable {
        var segment: Int
        var commit: Int
    }

    let store: SegmentStore
    private(set) var segments: [Segment] = []
    /// Every committed commit, in store order.
    private(set) var commits: [CommitRef] = []
    private let decoder: LZ4FrameDecoder
    private let content = ByteBuffer(capacity: 512 << 10)
    /// Data frames decompressed so far (for statistics and tests).
    private(set) var blocksDecompressed = 0
    /// Bytes read from segment files to find their commits (preambles,
    /// footers, commit indexes, walks), for statistics and tests.
    private(set) var bytesReadFindingCommits = 0
    /// What `COMMITTED` held when the store was opened (§6.1).
    let durable: DurablePointFile.Found
    /// Every problem found, each a torn tail or damage by the durable point (§9.1), in store order.
    private(set) var problems: [SegmentDamage] = []
    /// The first problem that is damage, not a torn tail.
    var damage: SegmentDamage? { problems.first { !$0.isTornTail } }
    /// The blocks ``forEachLine(of:fromCommit:_:)`` read, kept for the next session's.
    private let sessionBlocks = SessionBlockCache()
    /// Reads the lines of session reads (one parser for them all: making one is not cheap).
    var readFold = SessionFold()

    /// How a catalog treats damage.
    enum Mode {
        /// A reader's: damage is thrown (``SegmentStoreError/damaged(store:_:)``);
        /// the open segment is found from the durable point's back-links (§9).
        case reading
        /// A writer's: as a reader's, but every frame of an open segment is
        /// walked, so that no commit is appended after damage a walk can see.
        case writing
        /// `verify`'s: every frame read, every problem kept.
        case verifying
        /// `repair`'s: as a reader walks, but damage kept in ``problems``.
        case repairing
    }

    /// Walks every segment of `store` (§9), after reading its durable point
    /// (§6.1: first, so that a writer's later commits lie after it). A reader
    /// stops at the first problem of a segment; the problems are in
    /// ``problems``, classified (§9.1).
    init(store: SegmentStore, mode: Mode = .reading) throws(SegmentStoreError) {
        self.store = store
        do { decoder = try LZ4FrameDecoder() } catch { throw .compression(error) }
        do { durable = try DurablePointFile.read(store: store.path) } catch { throw .io(error) }
        var previous: UInt64 = 0
        // Only a reader trusts the back-links (§9): writers, `verify` and `repair` walk every frame.
        let linkedFrom: DurablePoint? = if mode == .reading, case .point(let point) = durable { point } else { nil }
        for number in try store.segmentNumbers() {
            previous = try walkSegment(number, previousCommit: previous, verifying: mode == .verifying, durable: linkedFrom)
        }
        problems = DamageRule(store: store, durable: durable, segments: segments.map(\.contents)).problems()
        if mode == .reading || mode == .writing, let damage { throw .damaged(store: store.path, damage) }
    }

    /// Where the last committed commit ends, as a durable point (generation 0).
    var lastCommitPoint: DurablePoint {
        guard let ref = commits.last else { return DurablePoint() }
        let contents = segments[ref.segment].contents
        let location = contents.indexLocations[ref.commit]
        return DurablePoint(commit: index(ref).number, segment: contents.number, end: location.offset + Int64(location.length),
                            indexLength: location.length)
    }

    /// Walks segment `number` and adds it and its commits; the number of its last commit (`previousCommit` when none).
    private func walkSegment(_ number: Int, previousCommit previous: UInt64, verifying: Bool,
                             durable: DurablePoint? = nil) throws(SegmentStoreError) -> UInt64 {
        do {
            let file = try OpenFile(path: store.segmentPath(number), mode: .read)
            let walker = try SegmentWalker(file: file, number: number, verifying: verifying)
            let contents = try walker.walk(previousCommit: previous, durable: durable)
            bytesReadFindingCommits += walker.window.bytesRead
            segments.append(Segment(file: file, contents: contents))
            for i in contents.commits.indices { commits.append(CommitRef(segment: segments.count - 1, commit: i)) }
            return contents.commits.last?.number ?? previous
        } catch { throw .io(error) }
    }

    /// Takes in what a writer committed since this reading catalog walked
    /// the store (a follower, §9): the last segment is walked on from the
    /// end of its last commit, and segments added since are walked. Returns
    /// `false`, changing nothing, when the store no longer holds what was
    /// read (the last segment shrank below it, or a segment went away): the
    /// caller opens the store again.
    func takeInGrowth() throws(SegmentStoreError) -> Bool {
        let numbers = try store.segmentNumbers()
        guard let last = segments.last else {
            var previous: UInt64 = 0
            for number in numbers { previous = try walkSegment(number, previousCommit: previous, verifying: false) }
            return true
        }
        guard numbers.count >= segments.count, numbers.prefix(segments.count).elementsEqual(segments.map(\.contents.number)) else {
            return false
        }
        let before = commits.last { $0.segment < segments.count - 1 }.map { index($0).number } ?? 0
        let walked: SegmentContents
        do {
            guard try last.file.size() >= last.contents.committedEnd else { return false }
            let walker = try SegmentWalker(file: last.file, number: last.contents.number, verifying: false)
            walked = try walker.walk(previousCommit: before, resuming: last.contents)
            bytesReadFindingCommits += walker.window.bytesRead
        } catch { throw .io(error) }
        guard walked.commits.count >= last.contents.commits.count else { return false }
        for i in last.contents.commits.count..<walked.commits.count { commits.append(CommitRef(segment: segments.count - 1, commit: i)) }
        segments[segments.count - 1].contents = walked
        var previous = walked.commits.last?.number ?? before
        for number in numbers.dropFirst(segments.count) {
            previous = try walkSegment(number, previousCommit: previous, verifying: false)
        }
        return true
    }

    /// The commit index at `ref`.
    func index(_ ref: CommitRef) -> CommitIndex { segments[ref.segment].contents.commits[ref.commit] }

    /// The number of the last committed commit (0 when none).
    var lastCommitNumber: UInt64 { commits.last.map { index($0).number } ?? 0 }

    /// Adds a commit the writer has just made durable, and opens its segment if new.
    func appendCommit(_ index: CommitIndex, at location: CommitIndexLocation, segment number: Int) throws(SegmentStoreError) {
        if segments.last?.contents.number != number {
            do {
                let file = try OpenFile(path: store.segmentPath(number), mode: .read)
                var contents = SegmentContents(number: number, name: SegmentFormat.segmentName(number))
                contents.header = SegmentHeader(segmentNumber: number, blockTarget: 0, checkpointInterval: 0)
                segments.append(Segment(file: file, contents: contents))
            } catch { throw .io(error) }
        }
        segments[segments.count - 1].contents.commits.append(index)
        segments[segments.count - 1].contents.indexLocations.append(location)
        segments[segments.count - 1].contents.committedEnd = location.offset + Int64(location.length)
        commits.append(CommitRef(segment: segments.count - 1, commit: segments[segments.count - 1].contents.commits.count - 1))
    }

    /// Decompresses one block of a commit; the content is valid until the next call.
    func blockContent(_ ref: CommitRef, block: Int) throws(SegmentStoreError) -> UnsafeRawBufferPointer {
        let segment = segments[ref.segment]
        let entry = segment.contents.commits[ref.commit].blocks[block]
        func corrupt(_ why: String) -> SegmentStoreError {
            .corrupt(SegmentDamage(file: segment.file.path, offset: entry.offset, kind: .dataFrame(why)))
        }
        guard entry.rawSize <= NavLogFormat.maxBlockContentBytes else { throw corrupt("content of \(entry.rawSize) bytes is over the limit") }
        let frame: [UInt8]
        do { frame = try segment.file.read(count: entry.length, at: entry.offset) } catch { throw .io(error) }
        guard frame.count == entry.length else { throw corrupt("cut short") }
        content.removeAll()
        let decoded = frame.withUnsafeBytes { raw in
            Result { () throws(LZ4FrameError) in try decoder.decodeFrame(raw, maxContentBytes: entry.rawSize, into: content) }
        }
        if case .failure(let error) = decoded { throw corrupt(error.description) }
        guard content.count == entry.rawSize else { throw corrupt("\(content.count) bytes of content, \(entry.rawSize) listed") }
        blocksDecompressed += 1
        return content.bytes
    }

    /// Calls `body` with each stored line of session `key` (without its
    /// `\n`), in store order, from commit number `from` (an index into
    /// ``commits``) on, until it returns `false`. Each commit costs a filter
    /// test; a commit that holds the session, a binary search in about one
    /// block, decompressed unless a session read before needed it (``SessionBlockCache``).
    func forEachLine(of key: SessionKey, fromCommit from: Int = 0,
                     _ body: (UnsafeRawBufferPointer, CommitRef) throws(SegmentStoreError) -> Bool) throws(SegmentStoreError) {
        for ref in commits[from...] {
            var seen = false
            blocks: for block in index(ref).candidateBlocks(key.hash) {
                let cached = try sessionBlocks.block(ref, block) { () throws(SegmentStoreError) in try blockContent(ref, block: block) }
                let lines = cached.lines(withHash: key.hash)
                for i in lines {
                    // nil: not the session's line; else whether to go on.
                    let goOn: Bool? = try cached.withLine(i) { (line) throws(SegmentStoreError) -> Bool? in
                        guard cached.hasHash(i, key.hash), Self.isLine(line, of: key, &readFold) else { return nil }
                        return try body(line, ref)
                    }
                    switch goOn {
                    case .some(false): return
                    case .some(true): seen = true
                    case nil: if seen { break blocks }
                    }
                }
                // The run ends inside this block when a line of another session follows it.
                if seen, lines.upperBound < cached.count { break blocks }
            }
        }
    }

    /// Whether `line` is one of session `key`'s (its `session` is the id, byte for byte).
    static func isLine(_ line: UnsafeRawBufferPointer, of key: SessionKey, _ fold: inout SessionFold) -> Bool {
        if let range = SessionSkim.sessionBytes(in: line) {
            return line[range].elementsEqual(key.id)
        }
        return fold.facts(line).map { Array($0.session.utf8) == key.id } ?? false
    }

    /// The checkpoint records of session `key`, by position, with the index
    /// (into ``commits``) of the commit each is in.
    func checkpoints(of key: SessionKey) -> [(commit: Int, ref: CommitIndex.Checkpoint)] {
        var found: [(commit: Int, ref: CommitIndex.Checkpoint)] = []
        for (i, ref) in commits.enumerated() {
            for checkpoint in index(ref).checkpoints where checkpoint.sessionHash == key.hash {
                found.append((i, checkpoint))
            }
        }
        return found
    }

    /// Reads and decodes a checkpoint record.
    func readCheckpoint(commit: Int, _ ref: CommitIndex.Checkpoint) throws(SegmentStoreError) -> SessionCheckpoint {
        let file = segments[commits[commit].segment].file
        let bytes: [UInt8]
        do { bytes = try file.read(count: ref.length, at: ref.offset) } catch { throw .io(error) }
        func corrupt(_ kind: SegmentFault) -> SegmentStoreError { .corrupt(SegmentDamage(file: file.path, offset: ref.offset, kind: kind)) }
        guard bytes.count == ref.length, ref.length >= 8 else { throw corrupt(.checkpoint("cut short")) }
        let decoded: Result<SessionCheckpoint, SegmentFault> = bytes.withUnsafeBytes { raw in
            let payload = UnsafeRawBufferPointer(rebasing: raw[8...])
            guard case .success(SegmentFormat.Tag.checkpoint.rawValue) = SkippableFrame.checkRecord(payload) else {
                return .failure(.checkpoint("record checksum does not hold"))
            }
            return SessionCheckpoint.decode(payload: payload, decoder: decoder)
        }
        return try decoded.mapError(corrupt).get()
    }
}
