/// Setting a file's bytes aside (schemas/format-layer.md §3), for both
/// formats: what is cut from a log or a segment, torn tail or damage, is
/// first copied to a side file, so nothing is lost.
enum TornTail {
    /// Copies `file`'s bytes from `offset` to `end` into a side file
    /// (``preserve(_:from:to:as:)``), then cuts the file at `offset` and
    /// syncs it; returns the side file's path.
    static func setAside(_ file: OpenFile, from offset: Int64, to end: Int64, as kind: String = "torn") throws(FileError) -> String {
        let side = try preserve(file, from: offset, to: end, as: kind)
        try file.truncate(to: offset)
        try file.sync()
        return side
    }

    /// Copies `file`'s bytes from `offset` to `end` into a new side file
    /// `<path>.<kind>-<offset>` (`.<kind>-<offset>.1`, … if taken), synced with
    /// its directory entry, and returns its path.
    private static func preserve(_ file: OpenFile, from offset: Int64, to end: Int64, as kind: String = "torn") throws(FileError) -> String {
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
