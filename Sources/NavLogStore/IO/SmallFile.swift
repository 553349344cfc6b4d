#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file read whole (a keys file, a settings file): at most `limit`
/// bytes, through ``OpenFile``.
public enum SmallFile {
    /// The file's bytes.
    ///
    /// - Throws: ``FileError`` when it cannot be read, or is over `limit` bytes.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(FileError) -> [UInt8] {
        let file = try OpenFile(path: path, mode: .read)
        defer { file.close() }
        let size = try file.size()
        guard size <= Int64(limit) else { throw FileError.io(path: path, call: "read", errno: EFBIG) }
        return try file.read(count: Int(size), at: 0)
    }
}
