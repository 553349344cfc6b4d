#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogCore

/// A store of the earlier layout (version 1): a directory of `.navlog` files, one per session (docs/store.md;
/// schemas/store.md).
///
/// ```swift
/// let store = try VersionOneStore(directory: "logs", create: true)
/// let writer = try store.openWriter(forSession: "user/42")   // logs/user_42-<hash>.navlog
/// for entry in try store.entries() { print(entry.session, entry.path) }
/// let reader = try store.reader(forSession: "user/42")
/// ```
///
/// A session id is an arbitrary string; its file name is a readable slug of
/// it plus a hash of its exact UTF-8 bytes (``fileName(forSession:)``), so an
/// id never names a path outside the directory and ids that differ only by
/// case (or by characters a file system would mangle) get different files.
/// The real id is the one inside the log; a log is found by checking it, so
/// even a hash collision only moves the second session to the next name.
public struct VersionOneStore: Sendable {
    /// The directory, as given.
    public let directory: String

    /// One log of the store.
    public struct Entry: Hashable, Sendable {
        /// The session id held in the log (`nil` for a log with no event yet).
        public var session: String?
        /// The log's path (`directory/name`).
        public var path: String
    }

    /// A store in `directory`; with `create`, the directory is made when
    /// absent (its parent must exist).
    ///
    /// - Throws: ``FileError`` `.io` when the directory is missing (without
    ///   `create`), is not a directory, or cannot be made.
    public init(directory: String, create: Bool = false) throws(FileError) {
        self.directory = DirectoryPath.trimmed(directory)
        var status = FileSystem.status(self.directory)
        if case .missing(let code) = status {
            guard create, code == ENOENT else { throw FileError(path: self.directory, kind: .io(call: "stat", errno: code)) }
            try FileSystem.makeDirectory(self.directory)
            status = FileSystem.status(self.directory)
            if case .missing(let code) = status { throw FileError(path: self.directory, kind: .io(call: "stat", errno: code)) }
        }
        guard status == .directory else {
            throw FileError(path: self.directory, kind: .io(call: "opendir", errno: ENOTDIR))
        }
    }

    /// Whether `path` is a directory (a store, rather than a log).
    public static func isStore(_ path: String) -> Bool {
        FileSystem.status(path) == .directory
    }

    // MARK: Names

    /// The longest slug kept in a file name, in bytes.
    public static let maxSlugBytes = 40
    /// The file name extension of logs.
    public static let logExtension = ".navlog"

    /// The file name of a session's log: `<slug>-<hash>.navlog`, where the
    /// hash is the XXH64 (seed 0) of the id's UTF-8 bytes as 16 lowercase hex
    /// digits and the slug is the id's ASCII letters, digits, `-` and `_` (up
    /// to ``maxSlugBytes``), every other run of bytes replaced by one `_`.
    /// `attempt` > 0 gives the names tried after a hash collision:
    /// `<slug>-<hash>~<attempt>.navlog`.
    ///
    /// The name is ASCII, at most 67 bytes, never empty, never starts with `.`
    /// or `-`, and holds no `/`: it is the same on every file system.
    public static func fileName(forSession id: String, attempt: Int = 0) -> String {
        var slug: [UInt8] = []
        slug.reserveCapacity(maxSlugBytes)
        for byte in id.utf8 {
            guard slug.count < maxSlugBytes else { break }
            let kept = (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if kept {
                slug.append(byte)
            } else if slug.last != UInt8(ascii: "_") {
                slug.append(UInt8(ascii: "_"))
            }
        }
        if slug.isEmpty || slug[0] == UInt8(ascii: "-") { slug.insert(UInt8(ascii: "_"), at: 0) }
        if slug.count > maxSlugBytes { slug.removeLast(slug.count - maxSlugBytes) }
        let hash = XXHash64.hash(Array(id.utf8))
        var name = String(decoding: slug, as: UTF8.self) + "-" + hex16(hash)
        if attempt > 0 { name += "~\(attempt)" }
        return name + logExtension
    }

    private static func hex16(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The most names tried for one id (collisions of a 64-bit hash).
    static let maxAttempts = 64

    /// Whether `name` is a log's name as this layout makes them
    /// (``fileName(forSession:attempt:)``): `<slug>-<16 hex digits>[~N].navlog`,
    /// the slug 1–40 of `A–Z a–z 0–9 _ -`, not starting with `-`, and N 1–63.
    public static func isLogName(_ name: String) -> Bool {
        var rest = Array(name.utf8)
        let ext = Array(logExtension.utf8)
        guard rest.count > ext.count, rest.suffix(ext.count).elementsEqual(ext) else { return false }
        rest.removeLast(ext.count)
        if let tilde = rest.lastIndex(of: UInt8(ascii: "~")) {
            let digits = rest[(tilde + 1)...]
            guard !digits.isEmpty, digits.count <= 2, digits.first != UInt8(ascii: "0"),
                  digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                  let attempt = Int(String(decoding: digits, as: UTF8.self)), attempt < maxAttempts else { return false }
            rest.removeSubrange(tilde...)
        }
        guard rest.count >= 18, rest[rest.count - 17] == UInt8(ascii: "-") else { return false }
        let hash = rest.suffix(16)
        guard hash.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }) else { return false }
        let slug = rest.prefix(rest.count - 17)
        guard slug.count <= maxSlugBytes, slug.first != UInt8(ascii: "-") else { return false }
        return slug.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A)
            || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// Whether `name` is a side file navlog keeps beside a log of this
    /// layout: `<log name>.torn-<offset>` or `.damaged-<offset>`
    /// (`….N` when taken), the bytes `navlog repair` cut off.
    public static func isSideFileName(_ name: String) -> Bool {
        guard let mark = TornTail.Kind.marks(name, after: logExtension) else { return false }
        let log = String(name[..<mark.lowerBound]) + logExtension
        let tail = name[mark.upperBound...].split(separator: ".", omittingEmptySubsequences: false)
        guard tail.count <= 2, tail.allSatisfy({ !$0.isEmpty && $0.allSatisfy({ $0.isASCII && $0.isNumber }) }) else { return false }
        return isLogName(log)
    }

    /// Whether a directory holding `names` (and no manifest) is a store of
    /// this layout: at least one log named as ``isLogName(_:)`` says, and
    /// nothing but such logs and their side files (``isSideFileName(_:)``).
    /// A folder of a user's own files (`run-a.navlog`, `notes/`,
    /// `sessions.ndjson`) is not one.
    public static func isVersionOne(names: [String]) -> Bool {
        var logs = 0
        for name in names {
            if isLogName(name) { logs += 1 } else if !isSideFileName(name) { return false }
        }
        return logs > 0
    }

    // MARK: Finding logs

    /// The path of the log holding `session`, or `nil` when the store has none.
    ///
    /// - Complexity: one `stat`, and when the file exists one open of it to
    ///   check the id it holds.
    public func path(forSession session: String) throws(FileError) -> String? {
        try locate(session).existing
    }

    /// Where `session`'s log is (`existing`), or else the path a new one
    /// gets (`free`): the first name in the collision sequence that is absent
    /// or holds no event yet.
    func locate(_ session: String) throws(FileError) -> (existing: String?, free: String) {
        var free: String?
        for attempt in 0..<Self.maxAttempts {
            let path = directory + "/" + Self.fileName(forSession: session, attempt: attempt)
            guard OpenFile.exists(path) else { return (nil, free ?? path) }
            let held = try LogReader(path: path).session()
            // By bytes: Swift's `==` holds "e\u{301}" and "\u{E9}" equal.
            if let held, held.utf8.elementsEqual(session.utf8) { return (path, path) }
            if held == nil, free == nil { free = path }
        }
        if let free { return (nil, free) }
        throw FileError(path: directory, kind: .corrupt(.sessionCollisions(limit: Self.maxAttempts, session: session)))
    }

    /// A reader of `session`'s log, or `nil` when the store has none.
    public func reader(forSession session: String) throws(FileError) -> LogReader? {
        guard let path = try path(forSession: session) else { return nil }
        return try LogReader(path: path)
    }

    /// A writer of `session`'s log: the existing log continued (its seq goes
    /// on), or a new one created.
    public func openWriter(forSession session: String, options: LogWriterOptions = LogWriterOptions()) throws(FileError) -> LogWriter {
        try LogWriter(path: locate(session).free, options: options)
    }

    // MARK: Listing

    /// The paths of every `.navlog` file in the store, sorted by name.
    /// Other files (side files of repairs, anything else) are left out.
    public func logPaths() throws(FileError) -> [String] {
        try DirectoryListing.names(in: directory)
            .filter { $0.hasSuffix(Self.logExtension) && !$0.hasPrefix(".") }
            .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            .map { directory + "/" + $0 }
    }

    /// Every log of the store with the session it holds, sorted by file name.
    ///
    /// - Complexity: opens each log (its footer, and the first checkpoint or
    ///   block for the id).
    public func entries() throws(FileError) -> [Entry] {
        var out: [Entry] = []
        for path in try logPaths() {
            out.append(Entry(session: try LogReader(path: path).session(), path: path))
        }
        return out
    }
}
