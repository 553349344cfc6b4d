#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogStore

/// A fresh temporary directory, removed (with its files) by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws(BenchmarkFailure) {
        let base = String(cString: getenv("TMPDIR") ?? strdup("/tmp"))
        var template = Array((base + "/navlog-bench.XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw BenchmarkFailure("cannot make a temporary directory under \(base)")
        }
        path = String(cString: made)
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Removes the directory and the files in it (it holds no subdirectories).
    func remove() {
        for name in (try? DirectoryListing.names(in: path)) ?? [] { unlink(file(name)) }
        rmdir(path)
    }
}

/// The size of a file in bytes (0 when missing).
func fileSize(_ path: String) -> Int {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : 0
}
