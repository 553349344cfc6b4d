/// What a writer opening a store did to the torn tail of its last segment
/// (schemas/segment-store.md §9).
public struct SegmentRecovery: Hashable, Sendable {
    /// The segment's file name.
    public var segment: String
    /// Where it was cut (the end of its last committed commit).
    public var cutOffset: Int64
    public var cutBytes: Int64
    /// The side file holding exactly the cut bytes.
    public var sideFile: String
}

/// The writer's side of the segment files: which segment commits go into,
/// the torn tail cut on opening, preambles of new segments, one write and
/// one sync per commit, and sealing at the segment target (§4, §6, §9).
final class SegmentAppender {
    let store: SegmentStore
    let options: SegmentWriterOptions
    /// The segment commits go into (0 before the first).
    private(set) var number: Int
    /// Open for writing while the current segment takes commits; `nil` when sealed (or none yet).
    private var file: LogFile?
    /// Where the next commit starts in the current segment.
    private(set) var end: Int64 = 0
    /// The current segment's commit index frames (for its footer).
    private var locations: [CommitIndexLocation] = []
    private(set) var recoveries: [SegmentRecovery] = []

    init(store: SegmentStore, catalog: SegmentCatalog, options: SegmentWriterOptions) throws(SegmentStoreError) {
        self.store = store
        self.options = options
        number = catalog.segments.last?.contents.number ?? 0
        for segment in catalog.segments.dropLast() {
            if let problem = segment.contents.problems.first {
                throw .corrupt(segment: segment.file.path, offset: problem.offset, reason: "damaged before the last segment: \(problem)")
            }
        }
        guard let last = catalog.segments.last?.contents, !last.sealed else { return }
        do {
            let path = store.segmentPath(last.number)
            let file = try LogFile(path: path, mode: .update)
            let size = try file.size()
            let keep = last.header == nil ? 0 : last.committedEnd
            if size > keep {
                let side = try TornTail.preserve(file, from: keep, to: size)
                try file.truncate(to: keep)
                try file.sync()
                recoveries.append(SegmentRecovery(segment: last.name, cutOffset: keep, cutBytes: size - keep, sideFile: side))
            }
            if keep == 0 {
                try writePreamble(file, number: last.number)
                end = Int64(SegmentFormat.preambleBytes)
            } else {
                end = keep
            }
            locations = last.indexLocations
            self.file = file
        } catch { throw .io(error) }
    }

    /// The segment and offset the next commit starts at, making a new
    /// segment (preamble written and synced, directory synced) when needed.
    func prepare() throws(SegmentStoreError) -> (segment: Int, offset: Int64) {
        if file == nil {
            number += 1
            do {
                let path = store.segmentPath(number)
                let file = try LogFile(path: path, mode: .readWrite)
                try file.truncate(to: 0)
                try writePreamble(file, number: number)
                try LogFile.syncDirectory(containing: path)
                self.file = file
            } catch { throw .io(error) }
            end = Int64(SegmentFormat.preambleBytes)
            locations = []
        }
        return (number, end)
    }

    /// Writes one commit's bytes (ending with its index at `index`) at the
    /// offset ``prepare()`` gave, and syncs once; seals the segment when it
    /// has reached the segment target.
    func append(_ bytes: UnsafeRawBufferPointer, index: CommitIndexLocation) throws(SegmentStoreError) {
        guard let file else { throw .closed(store: store.path) }
        do {
            try file.write(bytes, at: end)
            try file.sync()
        } catch { throw .io(error) }
        end += Int64(bytes.count)
        locations.append(index)
        if end >= Int64(options.segmentTarget) { try seal() }
    }

    /// Appends the footer and trailer to the current segment and syncs it.
    func seal() throws(SegmentStoreError) {
        guard let file else { return }
        do {
            try file.write(SegmentFooter.bytes(commits: locations, at: end), at: end)
            try file.sync()
        } catch { throw .io(error) }
        file.close()
        self.file = nil
    }

    /// Closes the current segment without sealing it (the next writer appends to it).
    func close() {
        file?.close()
        file = nil
    }

    private func writePreamble(_ file: LogFile, number: Int) throws(LogError) {
        let header = SegmentHeader(segmentNumber: number, blockTarget: options.blockTarget,
                                   checkpointInterval: options.checkpointInterval)
        try file.write(header.preamble(), at: 0)
        try file.sync()
    }
}
