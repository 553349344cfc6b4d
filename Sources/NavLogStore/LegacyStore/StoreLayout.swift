// LegacyStore/: The earlier store layout (a directory of `.navlog` logs), read and upgraded.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path given as a store holds: the one rule every command uses to
/// tell a store from anything else (schemas/segment-store.md §3 and §10,
/// schemas/store.md "Recognising a store").
///
/// ```swift
/// switch StoreLayout.of("logs") {
/// case .segmentStore: ...            // read or write it
/// case .versionOne: ...              // read it; `navlog store upgrade logs` converts it
/// case .empty: ...                   // a writer makes a store here
/// case .other: ...                   // not a store: no command reads or writes it as one
/// }
/// ```
public enum StoreLayout: Hashable, Sendable {
    /// Absent, or an empty directory (but for what a store's creation leaves before its manifest).
    case empty
    /// A segment store (it has the manifest).
    case segmentStore
    /// A version-1 store: only logs named as that layout names them, and
    /// their side files, at least one log, no manifest (``VersionOneStore/isVersionOne(names:)``).
    case versionOne
    /// Anything else: a file, or a directory of other files.
    case other

    /// What `path` holds.
    ///
    /// - Complexity: a `stat` and, for a directory without a manifest, one listing of it.
    public static func of(_ path: String) -> StoreLayout {
        guard OpenFile.exists(path) else { return .empty }
        if SegmentStore.isSegmentStore(path) { return .segmentStore }
        guard VersionOneStore.isStore(path), let names = try? DirectoryListing.names(in: path) else { return .other }
        if VersionOneStore.isVersionOne(names: names) { return .versionOne }
        return names.allSatisfy(SegmentFormat.creationLeftovers.contains) ? .empty : .other
    }

    /// The one line for a directory that is not a store, as every reader says it.
    public static func notAStoreMessage(_ path: String) -> String {
        "\(path): not a store (no \(SegmentFormat.manifestName) manifest and no version-1 logs)"
    }
}
