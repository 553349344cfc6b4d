// Inputs/: What a path names (InputKind), one session wherever it lives (OneSession), and verify and repair of whatever it is (Integrity); a new kind of input is added here.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `Inputs/` is where what the user names is read from: this type says
/// what a path is, ``OneSession`` reads one session wherever it lives, and
/// ``LogSummary`` and ``StoredSessionSummary`` are what `info` says of one.
///
/// What a path given on the command line names: the one answer every
/// reader and writer asks (a new kind of input is added here, and opened in
/// ``OneSession`` for one-session commands and ``SessionSource`` for reads
/// over many). A directory is what ``StoreLayout`` says it is.
///
/// ```swift
/// switch InputKind.of("logs") {
/// case .standardInput, .ndjson: ...          // NDJSON events
/// case .log: ...                              // a .navlog log (one session)
/// case .segmentFile: ...                      // a file of a store, given by mistake
/// case .directory(.segmentStore): ...         // a segment store
/// case .directory(.versionOne): ...           // an earlier-layout store of .navlog files
/// case .directory: ...                        // a directory that is not a store
/// case .missing: ...                          // nothing there
/// }
/// ```
public enum InputKind: Hashable, Sendable {
    /// `-`: NDJSON on standard input.
    case standardInput
    /// A file that does not start as a log: NDJSON.
    case ndjson
    /// A file that starts as a `.navlog` log does, or as one whose first
    /// bytes are damaged (``Preamble/isLog(_:)``); a reader reports the damage.
    case log
    /// A segment file of a store (its header intact) named where a log or
    /// NDJSON is read: a log reader refuses it, naming its store.
    case segmentFile
    /// A directory, and what it holds as a store (never ``StoreLayout/empty``
    /// for a missing path: that is ``missing(errno:)``).
    case directory(StoreLayout)
    /// Nothing can be looked at there (`errno` of `stat`).
    case missing(errno: Int32)

    /// What `path` names.
    ///
    /// - Complexity: a `stat`; for a file, a read of its first bytes; for
    ///   a directory, ``StoreLayout/of(_:)``.
    public static func of(_ path: String) -> InputKind {
        if path == "-" { return .standardInput }
        switch FileSystem.status(path) {
        case .missing(let code): return .missing(errno: code)
        case .directory: return .directory(StoreLayout.of(path))
        case .regularFile, .other: break
        }
        guard let file = try? OpenFile(path: path, mode: .read),
              let head = try? file.read(count: max(Preamble.fixedBytes.count, SegmentFormat.preambleBytes), at: 0) else {
            return .ndjson
        }
        return head.withUnsafeBytes { bytes in
            guard Preamble.isLog(bytes) else { return .ndjson }
            return Preamble.difference(bytes)?.isSegment == true ? .segmentFile : .log
        }
    }

    /// Whether it is read with a log reader (a log, or a segment file the
    /// reader refuses with the words every command uses).
    public var isLog: Bool { self == .log || self == .segmentFile }

    /// Whether it is a directory: a store, or what a store's reader refuses.
    public var isDirectory: Bool {
        if case .directory = self { return true }
        return false
    }

    /// Whether it is a store: a directory that holds a segment store or a version-1 store.
    public var isStore: Bool { self == .directory(.segmentStore) || self == .directory(.versionOne) }

    /// What it holds as a store: a missing path is ``StoreLayout/empty``
    /// (a writer makes a store there), a file is ``StoreLayout/other``.
    public var storeLayout: StoreLayout {
        switch self {
        case .directory(let layout): layout
        case .missing: .empty
        case .standardInput, .ndjson, .log, .segmentFile: .other
        }
    }
}
