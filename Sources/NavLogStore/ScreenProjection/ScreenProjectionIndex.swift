#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// What `navlog reindex STORE` did (schemas/screen-projection.md §6).
public struct ReindexSummary: Hashable, Sendable {
    /// Projection files written (missing, damaged or out of date) and kept (already right).
    public var written = 0
    public var kept = 0
    /// Stray files removed (`*.views.tmp`, projections of segments that do not exist).
    public var removed = 0
    public var commits = 0
    public var sessions = 0
}

/// `reindex` and `verify` of a segment store's screen projection
/// (schemas/screen-projection.md §6): both build the expected blocks from
/// the events (``ScreenProjectionBuilder``) and compare them, byte for
/// byte, with each segment's file.
public enum ScreenProjectionIndex {
    /// Rebuilds every projection file that is missing or not what the events
    /// give, holding the store's lock; idempotent.
    public static func reindex(store path: String) throws(SessionStreamError) -> ReindexSummary {
        if case .missing(let code) = FileSystem.status(path) { throw .missing(path: path, errno: code) }
        guard StoreLayout.of(path) == .segmentStore else { throw .notAStore(path: path) }
        let store: SegmentStore, catalog: SegmentCatalog
        do {
            store = try SegmentStore.open(at: path, writing: true)
            catalog = try SegmentCatalog(store: store)
        } catch { throw .store(error) }
        defer { store.releaseLock() }
        if let damage = catalog.damage { throw .storeDamaged(path: store.path, damage) }
        let set = ScreenProjectionSet(catalog: catalog, commits: catalog.commits.count)
        let built = try ScreenProjectionBuilder.build(store: store.path, commits: set.segments.flatMap(\.commits))
        var summary = ReindexSummary(commits: catalog.commits.count, sessions: built.sessions)
        var next = 0
        for segment in set.segments {
            let expected = Array(built.blocks[next..<(next + segment.commits.count)])
            next += segment.commits.count
            do throws(LogError) {
                // Kept only when byte for byte what would be written: a right file written before packing is rewritten packed.
                let bytes = try ScreenProjectionFile.bytes(segment: segment.number, blocks: expected)
                if case .success(bytes)? = try ScreenProjectionFile.contents(store: store.path, segment: segment.number) {
                    summary.kept += 1
                } else {
                    try ScreenProjectionFile.write(store: store.path, segment: segment.number, bytes: bytes)
                    summary.written += 1
                }
            } catch { throw .store(.io(error)) }
        }
        let segments = Set(set.segments.map(\.number))
        do throws(LogError) {
            for name in try DirectoryListing.names(in: store.path) {
                let stray = name.hasSuffix(ScreenProjectionFormat.suffix + ".tmp")
                    || ScreenProjectionFormat.segmentNumber(name).map { !segments.contains($0) } ?? false
                guard stray else { continue }
                try FileSystem.remove(store.path + "/" + name)
                summary.removed += 1
            }
        } catch { throw .store(.io(error)) }
        return summary
    }

    /// Adds a `projection` problem to `report` for each projection file that
    /// is damaged, cut short inside a record, or differs from the events; and
    /// for a segment not covered whole before one that has a projection (a
    /// hole). A projection that covers a prefix of the store's commits is
    /// behind (commits written since `reindex`), not damaged. A store whose
    /// events cannot be read whole is not checked here (its damage is
    /// reported already).
    static func check(_ catalog: SegmentCatalog, report: inout SegmentStoreReport) throws(SegmentStoreError) {
        let set = ScreenProjectionSet(catalog: catalog, commits: catalog.commits.count)
        var files: [Int: ScreenProjectionFile] = [:]
        for segment in set.segments {
            do { files[segment.number] = try ScreenProjectionFile.read(store: catalog.store.path, segment: segment.number) } catch { throw .io(error) }
        }
        guard !files.isEmpty, let built = try? ScreenProjectionBuilder.build(store: catalog.store.path, commits: set.segments.flatMap(\.commits)) else { return }
        var next = 0
        for segment in set.segments {
            let expected = Array(built.blocks[next..<(next + segment.commits.count)])
            next += segment.commits.count
            let name = ScreenProjectionFormat.fileName(segment.number)
            func damage(_ offset: Int64, _ commit: UInt64?, _ why: String) {
                report.problems.append(SegmentDamage(segment: name, offset: offset, commit: commit, kind: .projection(why)))
            }
            guard let file = files[segment.number] else { continue }
            // Blocks past the last segment's commits went with a tail of its events cut off: the next writer cuts them too.
            let isLastSegment = segment.number == catalog.segments.last?.contents.number
            for (k, block) in file.blocks.enumerated() {
                if k >= expected.count {
                    if !isLastSegment { damage(file.offsets[k], block.commit, "a block for a commit the segment does not hold") }
                } else if block.bytes != expected[k] {
                    damage(file.offsets[k], segment.commits[k].number, "block \(k + 1) is not what the events of its commit give")
                }
            }
            if let problem = file.problem, !file.cutShort { damage(problem.offset, nil, problem.why) }
        }
        // A hole: a segment not covered whole, before one with a projection.
        guard let short = set.segments.firstIndex(where: { (files[$0.number]?.blocks.count ?? 0) < $0.commits.count }),
              set.segments[(short + 1)...].contains(where: { files[$0.number] != nil }) else { return }
        let segment = set.segments[short]
        let name = ScreenProjectionFormat.fileName(segment.number)
        let why = files[segment.number].map { "covers \($0.blocks.count) of the segment's \(segment.commits.count) commits" } ?? "missing"
        report.problems.append(SegmentDamage(segment: name, offset: 0, kind: .projection(why + ", where later segments have a projection")))
    }
}
