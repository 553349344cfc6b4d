#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file read and replaced whole: a crash leaves the old contents
/// or the new, never a mix (side files such as the recorder's upload progress).
public enum WholeFile {
    /// The file's bytes, or `nil` when there is no file at `path`.
    ///
    /// - Throws: ``FileError`` for I/O trouble other than a missing file.
    public static func read(_ path: String) throws(FileError) -> [UInt8]? {
        guard OpenFile.exists(path) else { return nil }
        let file = try OpenFile(path: path, mode: .read)
        return try file.read(count: Int(try file.size()), at: 0)
    }

    /// Replaces the file at `path` with `bytes`: written to `PATH.tmp`,
    /// synced, renamed over `PATH`, the directory synced.
    ///
    /// - Throws: ``FileError`` naming the call that failed.
    public static func replace(_ path: String, with bytes: [UInt8]) throws(FileError) {
        let tmp = path + ".tmp"
        let file = try OpenFile(path: tmp, mode: .readWrite)
        try file.truncate(to: 0)
        try file.write(bytes, at: 0)
        try file.sync()
        file.close()
        guard rename(tmp, path) == 0 else { throw .io(path: path, call: "rename", errno: errno) }
        try OpenFile.syncDirectory(containing: path)
    }
}
