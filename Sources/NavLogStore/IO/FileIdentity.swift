#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names: its device and inode, symbolic links followed.
/// Two paths name the same file when their identities are equal, whatever
/// their spelling (`x` and `./x`, a hard link, a symbolic link).
public struct FileIdentity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The identity of the file at `path`; `nil` when there is none (or it
    /// cannot be reached). `-` is standard input, whatever it is open on.
    public init?(path: String) {
        var info = stat()
        if path == "-" {
            guard fstat(0, &info) == 0 else { return nil }
        } else {
            guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// When the file at `path` was last modified, in milliseconds since the
    /// Unix epoch (symbolic links followed); `nil` for `-` and when there is no such file.
    public static func modificationMilliseconds(path: String) -> Int64? {
        guard path != "-" else { return nil }
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        #if canImport(Darwin)
        let time = info.st_mtimespec
        #else
        let time = info.st_mtim
        #endif
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }

    /// Where writing a file at `output` would destroy one of `inputs`
    /// before (or while) it is read: ``Overlap/same(input:)`` when `output`
    /// is that input, ``Overlap/inside(directory:)`` when it lies inside an
    /// input that is a directory (a store), at any depth. `nil` when it is
    /// none of them. Only looks: nothing is created or opened for writing.
    ///
    /// - Complexity: one `stat` per input and per directory above `output`.
    public static func overlap(writing output: String, inputs: [String]) -> Overlap? {
        // An output named `-` is a file of that name, not standard input.
        if let target = FileIdentity(path: output == "-" ? "./-" : output) {
            for input in inputs where FileIdentity(path: input) == target { return .same(input: input) }
        }
        let directories = inputs.filter { $0 != "-" && isDirectory($0) }
        guard !directories.isEmpty else { return nil }
        let above = Set(directoriesAbove(output))
        return directories.first { FileIdentity(path: $0).map(above.contains) ?? false }.map { .inside(directory: $0) }
    }

    /// How an output meets an input; see ``overlap(writing:inputs:)``.
    public enum Overlap: Hashable, Sendable {
        /// The output is this input (the same file under any name).
        case same(input: String)
        /// The output lies inside this input directory.
        case inside(directory: String)
    }

    /// The identities of every directory that holds `path` (its parent,
    /// the parent's parent, … up to `/`), with links resolved.
    private static func directoriesAbove(_ path: String) -> [FileIdentity] {
        // The file's own links are resolved when it exists; else its parent's.
        guard var at = canonical(path).map(parent(of:)) ?? canonical(parent(of: path)) else { return [] }
        var found: [FileIdentity] = []
        while true {
            if let identity = FileIdentity(path: at) { found.append(identity) }
            if at == "/" { return found }
            at = parent(of: at)
        }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The absolute path with every link, `.` and `..` resolved (`realpath`).
    private static func canonical(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return path.withCString { stat($0, &info) } == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
