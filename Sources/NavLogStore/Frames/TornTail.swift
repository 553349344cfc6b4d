/// Setting a file's bytes aside (schemas/format-layer.md §3), for both
/// formats: what is cut from a log or a segment, torn tail or damage, is
/// first copied to a side file, so nothing is lost.
enum TornTail {
    /// What the cut bytes were, as a side file's name says it: `<file>.torn-<offset>`
    /// (a crash's unfinished tail) or `<file>.damaged-<offset>` (damage repair moved).
    enum Kind: String, CaseIterable {
        case torn, damaged

        /// Where `name` holds `<file suffix>.<kind>-` for one of the kinds, or `nil`.
        static func marks(_ name: String, after suffix: String) -> Range<String.Index>? {
            allCases.lazy.compactMap { name.firstRange(of: suffix + "." + $0.rawValue + "-") }.first
        }
    }

    /// Copies `file`'s bytes from `offset` to `end` into a side file
    /// (``preserve(_:from:to:as:)``), then cuts the file at `offset` and
    /// syncs it; returns the side file's path.
    static func setAside(_ file: OpenFile, from offset: Int64, to end: Int64, as kind: Kind = .torn) throws(FileError) -> String {
        let side = try preserve(file, from: offset, to: end, as: kind)
        try file.truncate(to: offset)
        try file.sync()
        return side
    }

    /// Copies `file`'s bytes from `offset` to `end` into a new side file
    /// `<path>.<kind>-<offset>` (`.<kind>-<offset>.1`, … if taken), synced with
    /// its directory entry, and returns its path.
    private static func preserve(_ file: OpenFile, from offset: Int64, to end: Int64, as kind: Kind) throws(FileError) -> String {
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
    static func sideName(_ path: String, kind: Kind, offset: Int64) -> String {
        var candidate = "\(path).\(kind.rawValue)-\(offset)"
        var n = 0
        while OpenFile.exists(candidate) {
            n += 1
            candidate = "\(path).\(kind.rawValue)-\(offset).\(n)"
        }
        return candidate
    }
}
