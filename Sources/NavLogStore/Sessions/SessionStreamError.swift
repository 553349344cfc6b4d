#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// Why reading sessions from a ``SessionStream`` stopped. The first failure
/// in source order is the one thrown.
public enum SessionStreamError: Error, Sendable {
    /// A path given to ``SessionSource/resolve(_:)`` cannot be looked at
    /// (`stat` failed with `errno`).
    case missing(path: String, errno: Int32)
    /// A directory given as an input that is not a store (``StoreLayout``).
    case notAStore(path: String)
    /// A file (a log or NDJSON) given where a store is listed (``SessionListing/sources(ofStore:)``).
    case fileNotAStore(path: String)
    /// A log cannot be opened or read, or a store cannot be listed.
    case log(FileError)
    /// A log's end is damaged (not a torn tail: its bytes are wrong).
    case damaged(path: String, LogDamage)
    /// An NDJSON input cannot be opened or read.
    case ndjson(NDJSONReadError)
    /// An NDJSON input had `count` rejected lines (each reported as a
    /// ``SessionStream/Note/rejected(_:ordinal:)``); the read ends with it
    /// after the file (its sessions that ended before may have been handed out).
    case rejectedLines(path: String, count: Int)
    /// A segment store cannot be opened or read, or a block of it is damaged.
    case store(SegmentStoreError)
    /// A segment store is damaged where a reader meets it (`navlog verify STORE` lists every problem).
    case storeDamaged(path: String, SegmentDamage)
}

extension SessionStreamError: CustomStringConvertible {
    /// One line: what went wrong and where.
    public var description: String {
        switch self {
        case .missing(let path, let code): "\(path): \(String(cString: strerror(code)))"
        case .notAStore(let path): StoreLayout.notAStoreMessage(path)
        case .fileNotAStore(let path): "\(path): not a store (a directory of .navlog files or a segment store)"
        case .log(let error): error.description
        case .damaged(let path, let damage): "\(path): \(damage)"
        case .ndjson(let error): error.description
        case .rejectedLines(let path, let count):
            "\(path == "-" ? "<stdin>" : path): \(count) line\(count == 1 ? "" : "s") rejected"
        case .store(let error): error.description
        case .storeDamaged(let path, let damage): "\(path)/\(damage)"
        }
    }

    /// Whether a segment store is damaged (schemas/segment-store.md §9.1).
    public var isStoreDamage: Bool {
        switch self {
        case .storeDamaged: true
        case .store(let error): error.isDamage
        default: false
        }
    }

    /// Whether the answer is "no" (damaged or rejected input, docs/commands.md "Exit status"
    /// 1) rather than trouble reading it (exit 2).
    public var isRejection: Bool {
        switch self {
        case .missing, .notAStore, .fileNotAStore, .ndjson: false
        case .log(let error): error.isCorruption
        case .damaged, .rejectedLines, .storeDamaged: true
        case .store(let error):
            switch error {
            case .corrupt, .damaged, .notAStore: true
            case .io(let error): error.isCorruption
            default: false
            }
        }
    }
}
