#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a directory: the one place that reads `readdir` entries.
public enum DirectoryListing {
    /// The names of the entries of `directory`, `.` and `..` left out, in the
    /// order the file system gives them.
    ///
    /// A name is read from its entry as a C string where it lies: a `dirent`
    /// is only as long as its name, so copying the whole `d_name` array (256
    /// bytes) out of the last entry of `readdir`'s buffer reads past it.
    ///
    /// - Throws: ``FileError`` `.io` (`opendir`) when the directory cannot be read.
    public static func names(in directory: String) throws(FileError) -> [String] {
        guard let dir = opendir(directory) else {
            throw FileError(path: directory, kind: .io(call: "opendir", errno: errno))
        }
        defer { closedir(dir) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
