#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A session id (or any id that names a session, such as a user's) that is
/// compared and hashed by its exact UTF-8 bytes.
///
/// Swift's `String ==` holds canonically equivalent strings equal: `"e\u{301}"`
/// and `"\u{E9}"` are one `String` key but two session ids to navlog, which
/// keeps them apart everywhere, as the store's file names do (a log refuses
/// the other one's events; inputs holding both hold two sessions).
///
/// ```swift
/// var last: [SessionID: Int] = [:]
/// last[SessionID("e\u{301}")] = 3
/// last[SessionID("\u{E9}")]            // nil
/// SessionID.same("e\u{301}", "\u{E9}") // false
/// ```
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
    /// The id.
    public let id: String

    public init(_ id: String) { self.id = id }

    public static func == (a: SessionID, b: SessionID) -> Bool { same(a.id, b.id) }

    public func hash(into hasher: inout Hasher) {
        if id.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            Array(id.utf8).withUnsafeBytes { hasher.combine(bytes: $0) }
        }
    }

    public var description: String { id }

    /// Whether two ids are the same bytes.
    @inlinable
    public static func same(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return b.utf8.withContiguousStorageIfAvailable { same(a, utf8: UnsafeRawBufferPointer($0)) }
            ?? a.utf8.elementsEqual(b.utf8)
    }

    /// Whether `id` is exactly the bytes `key`.
    @inlinable
    public static func same(_ id: String, utf8 key: UnsafeRawBufferPointer) -> Bool {
        // Native strings, small ones included, lend their bytes as they are.
        id.utf8.withContiguousStorageIfAvailable { p in
            p.count == key.count && (p.isEmpty || memcmp(p.baseAddress!, key.baseAddress!, p.count) == 0)
        } ?? id.utf8.elementsEqual(key)
    }
}

extension SessionID {
    /// The longest session id, in UTF-8 bytes (a store's checkpoint records
    /// the id's length in 16 bits: schemas/segment-store.md §5.2).
    public static let maxBytes = 65_535

    /// Why `id` cannot name a session, or `nil` when it can: it must be
    /// non-empty and at most ``maxBytes`` UTF-8 bytes. The one check of an
    /// id every input makes (the event parser, imports).
    public static func problem(_ id: String) -> EventParseError? {
        if id.isEmpty { return .invalidValue(field: "session", reason: "must not be empty") }
        let bytes = id.utf8.count
        guard bytes <= maxBytes else {
            return .invalidValue(field: "session", reason: "is \(bytes) bytes long; a session id is at most \(maxBytes) bytes")
        }
        return nil
    }
}
