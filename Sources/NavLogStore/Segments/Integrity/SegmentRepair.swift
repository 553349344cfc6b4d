#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What `navlog repair STORE` did (schemas/segment-store.md §9.1).
public struct SegmentRepairReport: Hashable, Sendable {
    /// One file cut or moved aside.
    public struct Move: Hashable, Sendable, CustomStringConvertible {
        /// The segment's file name.
        public var segment: String
        /// Where it was cut (0 with ``whole``).
        public var offset: Int64
        public var bytes: Int64
        /// Renamed whole (a segment after the damage).
        public var whole: Bool
        /// Only a torn tail (bytes after the durable point).
        public var tornTail: Bool
        /// Commits and events set aside (as their commit indexes list them).
        public var commits: Int
        public var events: Int
        /// Where the bytes are now.
        public var sideFile: String

        public var description: String {
            let what = tornTail ? "a torn tail" : "damaged"
            let counts = "\(commits) commit\(commits == 1 ? "" : "s"), \(events) event\(events == 1 ? "" : "s")"
            return whole
                ? "\(segment): moved whole (\(bytes) bytes, \(counts)) to \(sideFile)"
                : "\(segment): cut \(bytes) bytes (\(what), \(counts)) at byte \(offset), kept in \(sideFile)"
        }
    }

    /// Every problem found before repairing (verify's).
    public var found: [SegmentDamage] = []
    public var moves: [Move] = []
    public var wroteManifest = false
    /// The durable point written, when it was.
    public var wrotePoint: DurablePoint?
    /// Screen-projection files written again (`reindex`), when verify found them wrong.
    public var projectionFilesWritten = 0
    /// Problems left afterwards (files the store does not know are not counted).
    public var left: [SegmentDamage] = []
    public var commitsKept = 0

    public var nothingToDo: Bool { moves.isEmpty && !wroteManifest && wrotePoint == nil && projectionFilesWritten == 0 }
    public var commitsSetAside: Int { moves.reduce(0) { $0 + $1.commits } }
    public var eventsSetAside: Int { moves.reduce(0) { $0 + $1.events } }
}

/// Repairs a segment store: keeps the longest prefix of intact commits and
/// sets every byte after it aside in side files, then writes the manifest
/// and the durable point that agree with what is kept (§9.1). Nothing is
/// deleted.
public enum SegmentRepair {
    public static func repair(store path: String) throws(SegmentStoreError) -> SegmentRepairReport {
        var report = try repairSegments(store: path)
        // The projection must agree with the events kept: `reindex` (it takes the lock itself).
        let projection = try SegmentVerifier.verify(store: SegmentStore.open(at: path)).problems.contains {
            if case .projection = $0.kind { true } else { false }
        }
        if projection {
            do { report.projectionFilesWritten = try ScreenProjectionIndex.reindex(store: path).written } catch {
                if case .store(let error) = error { throw error }
                throw .damaged(store: path, SegmentDamage(file: ScreenProjectionFormat.suffix, offset: 0, kind: .projection(error.description)))
            }
            report.left = try SegmentVerifier.verify(store: SegmentStore.open(at: path)).problems.filter(\.needsRepair)
        }
        return report
    }

    private static func repairSegments(store path: String) throws(SegmentStoreError) -> SegmentRepairReport {
        let store = try SegmentStore.openForRepair(at: path)
        defer { store.releaseLock() }
        var report = SegmentRepairReport()
        let verified = try SegmentVerifier.verify(store: store)
        report.found = verified.problems.filter(\.needsRepair)
        guard !report.found.isEmpty else { return report }
        let catalog = try SegmentCatalog(store: store, mode: .repairing)
        let listed = try SegmentCatalog(store: store, mode: .verifying)
        // The first bad place, by segment number and offset: everything from the commit it is in on goes.
        let first = report.found.compactMap { problem -> (number: Int, offset: Int64, torn: Bool)? in
            guard let number = SegmentFormat.segmentNumber(problem.file) else { return nil }
            return (number, problem.offset, problem.isTornTail)
        }.min { ($0.number, $0.offset) < ($1.number, $1.offset) }
        if let first {
            let allTorn = report.found.allSatisfy { $0.isTornTail || SegmentFormat.segmentNumber($0.file) == nil }
            do throws(FileError) {
                for segment in catalog.segments where segment.contents.number >= first.number {
                    let contents = segment.contents
                    let number = contents.number
                    let aside = listed.segments.first { $0.contents.number == number }?.contents
                    let size = try segment.file.size()
                    if number > first.number {
                        let side = TornTail.sideName(store.segmentPath(number), kind: .damaged, offset: 0)
                        try FileSystem.rename(store.segmentPath(number), to: side)
                        try OpenFile.syncDirectory(containing: side)
                        report.moves.append(SegmentRepairReport.Move(segment: contents.name, offset: 0, bytes: size, whole: true, tornTail: false,
                                                                     commits: aside?.commits.count ?? 0, events: aside.map(eventCount) ?? 0,
                                                                     sideFile: side))
                        continue
                    }
                    // The end of the last commit that ends at or before the first bad byte.
                    let ends = contents.indexLocations.map { $0.offset + Int64($0.length) }
                    let headerOK = contents.header != nil && first.offset >= Int64(SegmentFormat.preambleBytes)
                    let cut = headerOK ? (ends.last { $0 <= first.offset } ?? Int64(SegmentFormat.preambleBytes)) : 0
                    guard size > cut else { continue }
                    let file = try OpenFile(path: segment.file.path, mode: .update)
                    defer { file.close() }
                    let torn = allTorn && cut > 0
                    let side = try TornTail.setAside(file, from: cut, to: size, as: torn ? .torn : .damaged)
                    if cut == 0 {
                        let header = SegmentHeader(segmentNumber: number, blockTarget: SegmentFormat.defaultBlockTarget,
                                                   checkpointInterval: SegmentFormat.defaultCheckpointInterval)
                        try file.write(header.preamble(), at: 0)
                        try file.sync()
                    }
                    let gone = aside.map { c in zip(c.commits, c.indexLocations).filter { $0.1.offset >= cut }.map(\.0) } ?? []
                    report.moves.append(SegmentRepairReport.Move(segment: contents.name, offset: cut, bytes: size - cut, whole: false, tornTail: torn,
                                                                 commits: gone.count, events: gone.reduce(0) { $0 + Int($1.eventCount) },
                                                                 sideFile: side))
                }
            } catch { throw .io(error) }
        }
        if store.lacksManifest || store.minorVersion == 0 {
            try store.writeManifest()
            report.wroteManifest = true
        }
        let kept = try SegmentCatalog(store: store, mode: .repairing)
        var point = kept.lastCommitPoint
        if case .point(let old) = kept.durable { point.generation = old.generation + 2 }
        do { try DurablePointFile.create(store: store.path, point: point) } catch { throw .io(error) }
        report.wrotePoint = point
        report.commitsKept = kept.commits.count
        report.left = try SegmentVerifier.verify(store: store).problems.filter(\.needsRepair)
        return report
    }

    private static func eventCount(_ contents: SegmentContents) -> Int {
        contents.commits.reduce(0) { $0 + Int($1.eventCount) }
    }
}

extension SegmentDamage {
    /// Whether repair sets it right: a problem of the events' files or of
    /// the store's own files (an unknown file is the user's; a projection
    /// is set right by `navlog reindex`).
    var needsRepair: Bool {
        switch kind {
        case .unknownFile, .projection: false
        default: true
        }
    }
}
