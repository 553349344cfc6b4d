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
/// one sync per commit then the durable point moved past it, and sealing at
/// the segment target (§4, §6, §6.1, §9.1).
final class SegmentAppender {
    let store: SegmentStore
    let options: SegmentWriterOptions
    /// The segment commits go into (0 before the first).
    private(set) var number: Int
    /// Open for writing while the current segment takes commits; `nil` when sealed (or none yet).
    private var file: OpenFile?
    /// Where the next commit starts in the current segment.
    private(set) var end: Int64 = 0
    /// The current segment's commit index frames (for its footer).
    private var locations: [CommitIndexLocation] = []
    private(set) var recoveries: [SegmentRecovery] = []
    /// `COMMITTED`, moved forward after each commit's sync (§6.1).
    private let durable: DurablePointFile

    init(store: SegmentStore, catalog: SegmentCatalog, options: SegmentWriterOptions) throws(SegmentStoreError) {
        self.store = store
        self.options = options
        number = catalog.segments.last?.contents.number ?? 0
        for segment in catalog.segments.dropLast() {
            if let problem = segment.contents.problems.first {
                throw .corrupt(segment: segment.file.path, offset: problem.offset, reason: "damaged before the last segment: \(problem)")
            }
        }
        let point: DurablePoint
        if case .point(let found) = catalog.durable {
            point = found
        } else {
            // A 2.0 store (the catalog refused a 2.1 store without its point): it gets one, then the 2.1 manifest (§3).
            if let last = catalog.segments.last?.contents, !last.sealed, last.fileSize > (last.header == nil ? 0 : last.committedEnd) {
                throw .damaged(store: store.path, SegmentDamage(file: last.name, offset: last.committedEnd, kind: .segment(
                    "\(last.fileSize - last.committedEnd) bytes after the last commit of a format 2.0 store, which cannot tell a torn tail from damage")))
            }
            point = catalog.lastCommitPoint
            do { try DurablePointFile.create(store: store.path, point: point) } catch { throw .io(error) }
            try store.writeManifest()
        }
        do { durable = try DurablePointFile(store: store.path, current: point) } catch { throw .io(error) }
        guard let last = catalog.segments.last?.contents, !last.sealed else { return }
        do {
            let path = store.segmentPath(last.number)
            let file = try OpenFile(path: path, mode: .update)
            let size = try file.size()
            let keep = last.header == nil ? 0 : last.committedEnd
            if size > keep {
                // Only bytes after the durable point get here (the catalog refuses damage): a torn tail, cut aside and said.
                let side = try TornTail.setAside(file, from: keep, to: size)
                let recovery = SegmentRecovery(segment: last.name, cutOffset: keep, cutBytes: size - keep, sideFile: side)
                recoveries.append(recovery)
                store.onTornTailCut?(recovery)
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

    /// The segment and offset the next commit starts at, and the back-link
    /// its index carries (the length of the segment's last index frame, 0
    /// in a new segment, §5.3), making a new segment (preamble written and
    /// synced, directory synced) when needed.
    func prepare() throws(SegmentStoreError) -> (segment: Int, offset: Int64, backLink: Int) {
        if file == nil {
            number += 1
            do {
                let path = store.segmentPath(number)
                let file = try OpenFile(path: path, mode: .readWrite)
                try file.truncate(to: 0)
                try writePreamble(file, number: number)
                try OpenFile.syncDirectory(containing: path)
                self.file = file
            } catch { throw .io(error) }
            end = Int64(SegmentFormat.preambleBytes)
            locations = []
        }
        return (number, end, locations.last?.length ?? 0)
    }

    /// Writes one commit's bytes (ending with its index at `index`) at the
    /// offset ``prepare()`` gave, and syncs once; seals the segment when it
    /// has reached the segment target.
    func append(_ bytes: UnsafeRawBufferPointer, index: CommitIndexLocation, commit: UInt64) throws(SegmentStoreError) {
        guard let file else { throw .closed(store: store.path) }
        do {
            try file.write(bytes, at: end)
            try file.sync()
            try durable.advance(commit: commit, segment: number, end: end + Int64(bytes.count), indexLength: index.length)
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

    private func writePreamble(_ file: OpenFile, number: Int) throws(FileError) {
        let header = SegmentHeader(segmentNumber: number, blockTarget: options.blockTarget,
                                   checkpointInterval: options.checkpointInterval)
        try file.write(header.preamble(), at: 0)
        try file.sync()
    }
}

extension SegmentRecovery: CustomStringConvertible {
    /// `00000002.nls: torn tail of 123 bytes after the durable point cut at byte 4567, kept in STORE/00000002.nls.torn-4567`.
    public var description: String {
        "\(segment): a torn tail of \(cutBytes) bytes after the durable point cut at byte \(cutOffset), kept in \(sideFile)"
    }
}
