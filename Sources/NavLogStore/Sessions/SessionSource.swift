/// One input of a read over many sessions: a `.navlog` log (one session) or
/// an NDJSON file (any number of sessions, interleaved or not).
///
/// ```swift
/// let sources = try SessionSource.resolve(["store/", "extra.ndjson", "s-9.navlog"])
/// // [.log("store/a.navlog"), .log("store/b.navlog"), .ndjson("extra.ndjson"), .log("s-9.navlog")]
/// ```
public enum SessionSource: Hashable, Sendable {
    /// A `.navlog` file: one session.
    case log(String)
    /// NDJSON (`-` for standard input): any number of sessions.
    case ndjson(String)
    /// A share of a segment store's sessions, each whole (``SegmentStorePart``).
    case segments(SegmentStorePart)

    /// The path, as given.
    public var path: String {
        switch self {
        case .log(let path), .ndjson(let path): path
        case .segments(let part): part.store
        }
    }

    /// The sources that paths name (``InputKind``), in order: `-` is NDJSON
    /// on standard input; a segment store is read in
    /// ``SegmentStorePart/defaultParts`` parts as of its commits now
    /// (``segmentParts(_:)``); a version-1 store (``StoreLayout/versionOne``)
    /// is its `*.navlog` files sorted by name (``VersionOneStore/logPaths()``); any
    /// other directory is not a store; a file is a log when it starts as one
    /// (a segment file too, which its reader refuses), else NDJSON.
    ///
    /// - Throws: ``SessionStreamError/missing(path:errno:)`` for a path that
    ///   cannot be looked at; ``SessionStreamError/notAStore(path:)`` for a
    ///   directory that is not a store; `.log` when a store cannot be listed.
    public static func resolve(_ paths: [String]) throws(SessionStreamError) -> [SessionSource] {
        var sources: [SessionSource] = []
        for path in paths {
            switch InputKind.of(path) {
            case .standardInput, .ndjson: sources.append(.ndjson(path))
            case .log, .segmentFile: sources.append(.log(path))
            case .missing(let code): throw .missing(path: path, errno: code)
            case .directory(.segmentStore): sources += try segmentParts(path)
            case .directory(.versionOne):
                do throws(FileError) {
                    sources += try VersionOneStore(directory: path).logPaths().map(SessionSource.log)
                } catch {
                    throw .log(error)
                }
            case .directory(.empty), .directory(.other): throw .notAStore(path: path)
            }
        }
        return sources
    }

    /// A segment store's parts, reading the commits committed now. Damage
    /// (schemas/segment-store.md §9.1) is thrown; a torn tail after the
    /// durable point is not damage (a writer may be appending): the commits
    /// before it are read.
    public static func segmentParts(_ path: String) throws(SessionStreamError) -> [SessionSource] {
        let catalog: SegmentCatalog
        do { catalog = try SegmentCatalog(store: SegmentStore.open(at: path)) } catch { throw .store(error) }
        if let damage = catalog.damage { throw .storeDamaged(path: catalog.store.path, damage) }
        let parts = catalog.commits.isEmpty ? 1 : SegmentStorePart.defaultParts
        let projection = ScreenProjectionSet(catalog: catalog, commits: catalog.commits.count)
        return (0..<parts).map { part in
            var piece = SegmentStorePart(store: catalog.store.path, commits: catalog.commits.count, part: part, parts: parts)
            piece.projection = projection
            return .segments(piece)
        }
    }

    /// The size of the file on disk; `Int64.max` when it cannot be found
    /// (standard input, a file gone).
    var fileSize: Int64 {
        if case .ndjson("-") = self { return .max }
        if case .segments = self { return .max }
        if case .regularFile(let size) = FileSystem.status(path) { return size }
        return .max
    }
}
