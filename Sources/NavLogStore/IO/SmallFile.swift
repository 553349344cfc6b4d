#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small file read whole (a keys file, a settings file): at most `limit`
/// bytes, through ``LogFile``.
public enum SmallFile {
    /// The file's bytes.
    ///
    /// - Throws: ``LogError`` when it cannot be read, or is over `limit` bytes.
    public static func read(_ path: String, limit: Int = 1 << 20) throws(LogError) -> [UInt8] {
        let file = try LogFile(path: path, mode: .read)
        defer { file.close() }
        let size = try file.size()
        guard size <= Int64(limit) else { throw LogError.io(path: path, call: "read", errno: EFBIG) }
        return try file.read(count: Int(size), at: 0)
    }
}
