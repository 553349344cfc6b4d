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
///
/// Memory: what the build holds (see there), and one segment at a time: the
/// file `reindex` would write (packed, as on disk) and the one it has, or
/// the file `verify` reads, its blocks unpacked (their `session.start`
/// templates parsed one block at a time). Each expected block is made when
/// its turn comes and dropped once compared or packed.
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
        var built = try ScreenProjectionBuilder.build(store: store.path, commits: set.segments.flatMap(\.commits))
        var summary = ReindexSummary(commits: catalog.commits.count, sessions: built.sessions)
        for segment in set.segments {
            do throws(FileError) {
                // One segment's file at a time, made block by block (packed, about what it takes on disk).
                // Kept only when byte for byte what would be written: a right file written before packing is rewritten packed.
                let bytes = try ScreenProjectionFile.bytes(segment: segment.number, blocks: segment.commits.lazy.map { _ in built.nextBlock() })
                if case .success(bytes)? = try ScreenProjectionFile.contents(store: store.path, segment: segment.number) {
                    summary.kept += 1
                } else {
                    try ScreenProjectionFile.write(store: store.path, segment: segment.number, bytes: bytes)
                    summary.written += 1
                }
            } catch { throw .store(.io(error)) }
        }
        let segments = Set(set.segments.map(\.number))
        do throws(FileError) {
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
        let path = catalog.store.path
        let present = set.segments.map { OpenFile.exists(path + "/" + ScreenProjectionFormat.fileName($0.number)) }
        guard present.contains(true) else {
            if !catalog.commits.isEmpty { report.projectionBehind = "the store has none" }
            return
        }
        var built: ScreenProjectionBuilder.Built
        do { built = try ScreenProjectionBuilder.build(store: path, commits: set.segments.flatMap(\.commits)) } catch {
            switch error {
            case .store(let error): throw error
            case .storeDamaged(let store, let damage): throw .damaged(store: store, damage)
            case .log(let error): throw .io(error)
            default: throw .corrupt(segment: path, offset: 0, reason: "the screen projection cannot be built from the events: \(error)")
            }
        }
        // One segment's file at a time, compared block by block with what the events give, then dropped;
        // how many blocks each covers is kept for the hole below (`nil`: no file).
        var covered: [Int?] = []
        for (segment, present) in zip(set.segments, present) {
            // Read without its blocks' templates (they can be many), which are then checked one block at a time.
            var file: ScreenProjectionFile?
            do { file = present ? try ScreenProjectionFile.read(store: path, segment: segment.number, withTemplates: false) : nil } catch {
                throw .io(error)
            }
            file?.checkTemplates()
            covered.append(file?.blocks.count)
            guard let file else {
                built.skip(segment.commits.count)
                continue
            }
            let name = ScreenProjectionFormat.fileName(segment.number)
            func damage(_ offset: Int64, _ commit: UInt64?, _ why: String) {
                report.problems.append(SegmentDamage(file: name, offset: offset, commit: commit, kind: .projection(why)))
            }
            for (k, commit) in segment.commits.enumerated() {
                guard k < file.blocks.count else {
                    built.skip(1)
                    continue
                }
                if file.blocks[k].bytes != built.nextBlock() {
                    damage(file.offsets[k], commit.number, "block \(k + 1) is not what the events of its commit give")
                }
            }
            // Blocks past the last segment's commits went with a tail of its events cut off: the next writer cuts them too.
            if segment.number != catalog.segments.last?.contents.number {
                for k in file.blocks.indices.dropFirst(segment.commits.count) {
                    damage(file.offsets[k], file.blocks[k].commit, "a block for a commit the segment does not hold")
                }
            }
            if let problem = file.problem, !file.cutShort { damage(problem.offset, nil, problem.why) }
        }
        // A hole: a segment not covered whole, before one with a projection.
        guard let short = set.segments.indices.first(where: { (covered[$0] ?? 0) < set.segments[$0].commits.count }) else { return }
        guard covered[(short + 1)...].contains(where: { $0 != nil }) else {
            // Damage already said is not also called behind.
            guard !report.problems.contains(where: { if case .projection = $0.kind { true } else { false } }) else { return }
            let covers = zip(set.segments, covered).reduce(0) { $0 + min($1.0.commits.count, $1.1 ?? 0) }
            report.projectionBehind = "it covers \(covers) of the store's \(catalog.commits.count) commit\(catalog.commits.count == 1 ? "" : "s")"
            return
        }
        let segment = set.segments[short]
        let name = ScreenProjectionFormat.fileName(segment.number)
        let why = covered[short].map { "covers \($0) of the segment's \(segment.commits.count) commits" } ?? "missing"
        report.problems.append(SegmentDamage(file: name, offset: 0, kind: .projection(why + ", where later segments have a projection")))
    }
}
