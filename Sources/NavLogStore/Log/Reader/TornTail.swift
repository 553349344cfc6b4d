/// What opening a log for writing (or `navlog repair`) had to do to a file
/// whose tail was torn or damaged (schemas/navlog-format.md §9).
public struct LogRecovery: Hashable, Sendable {
    /// Where the file was cut.
    public var cutOffset: Int64
    /// How many bytes were cut.
    public var cutBytes: Int64
    /// The side file holding exactly the cut bytes (`nil` when only a footer
    /// was cut, which holds nothing that is not elsewhere).
    public var sideFile: String?
    /// Events kept from an unfinished data frame, which was finished in place.
    public var recoveredEvents: Int
    /// Why the tail was cut.
    public var reason: String

    public init(cutOffset: Int64, cutBytes: Int64, sideFile: String?, recoveredEvents: Int, reason: String) {
        self.cutOffset = cutOffset
        self.cutBytes = cutBytes
        self.sideFile = sideFile
        self.recoveredEvents = recoveredEvents
        self.reason = reason
    }
}

enum TornTail {
    /// Copies `file`'s bytes from `offset` to `end` into a new side file
    /// `<path>.torn-<offset>` (`.torn-<offset>.1`, … if taken), synced with
    /// its directory entry, and returns its path.
    static func preserve(_ file: OpenFile, from offset: Int64, to end: Int64, as kind: String = "torn") throws(FileError) -> String {
        let candidate = sideName(file.path, kind: kind, offset: offset)
        let side = try OpenFile(path: candidate, mode: .createNew)
        let chunk = ByteBuffer(capacity: 1 << 20)
        var at = offset
        while at < end {
            chunk.removeAll()
            let want = Int(min(Int64(1 << 20), end - at))
            let got = try file.read(count: want, at: at, appendingTo: chunk)
            if got == 0 { break }
            try side.write(chunk.bytes, at: at - offset)
            at += Int64(got)
        }
        try side.sync()
        side.close()
        try OpenFile.syncDirectory(containing: candidate)
        return candidate
    }

    /// `<path>.<kind>-<offset>`, or with `.1`, `.2`, … when taken.
    static func sideName(_ path: String, kind: String, offset: Int64) -> String {
        var candidate = "\(path).\(kind)-\(offset)"
        var n = 0
        while OpenFile.exists(candidate) {
            n += 1
            candidate = "\(path).\(kind)-\(offset).\(n)"
        }
        return candidate
    }
}
