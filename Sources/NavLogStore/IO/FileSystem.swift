#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Calls on paths rather than on an open file (``OpenFile``): what a path
/// names, and removing, renaming and making files and directories. Every
/// failure is a ``FileError`` naming the call, the path and errno.
public enum FileSystem {
    /// What a path names, symbolic links followed.
    public enum Status: Equatable, Sendable {
        case regularFile(size: Int64)
        case directory
        /// A pipe, a device, a socket.
        case other
        /// Nothing can be looked at there (`errno` of `stat`).
        case missing(errno: Int32)
    }

    /// What `path` names.
    public static func status(_ path: String) -> Status {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing(errno: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile(size: Int64(info.st_size))
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Whether anything is at `path`.
    public static func exists(_ path: String) -> Bool {
        if case .missing = status(path) { return false }
        return true
    }

    /// `nil` when this process may read `path`, else the `errno` of `access`.
    public static func readProblem(_ path: String) -> Int32? {
        access(path, R_OK) == 0 ? nil : errno
    }

    /// `nil` when this process may run `path`, else the `errno` of `access`.
    public static func runProblem(_ path: String) -> Int32? {
        access(path, X_OK) == 0 ? nil : errno
    }

    /// The system's message for `code` (`strerror`).
    public static func reason(_ code: Int32) -> String { errnoDescription(code) }

    /// Removes the file at `path`; nothing to do when none is there.
    public static func remove(_ path: String) throws(FileError) {
        guard unlink(path) == 0 || errno == ENOENT else { throw FileError.io(path: path, call: "unlink", errno: errno) }
    }

    /// Removes the empty directory at `path`; nothing to do when none is there.
    public static func removeDirectory(_ path: String) throws(FileError) {
        guard rmdir(path) == 0 || errno == ENOENT else { throw FileError.io(path: path, call: "rmdir", errno: errno) }
    }

    /// Renames `from` to `to`, replacing what `to` named.
    public static func rename(_ from: String, to: String) throws(FileError) {
        #if canImport(Glibc)
        let renamed = Glibc.rename(from, to)
        #elseif canImport(Musl)
        let renamed = Musl.rename(from, to)
        #else
        let renamed = Darwin.rename(from, to)
        #endif
        guard renamed == 0 else { throw FileError.io(path: from, call: "rename", errno: errno) }
    }

    /// Makes the directory `path`; `false` when something is already there.
    @discardableResult
    public static func makeDirectory(_ path: String) throws(FileError) -> Bool {
        if mkdir(path, 0o755) == 0 { return true }
        guard errno == EEXIST else { throw FileError.io(path: path, call: "mkdir", errno: errno) }
        return false
    }
}
