import Foundation

/// A fresh directory under the temporary directory (`$TMPDIR`), named after
/// the process (`navlog-bench.XXXXXX`), for one test or one benchmark run, removed with everything in it when the value is
/// released or ``remove()`` is called, unless made with `keep: true`.
///
/// ```swift
/// let dir = try TemporaryDirectory()
/// let log = dir.file("a.navlog")          // a path in it
/// let input = try dir.file("in.ndjson", text)   // a file written in it
/// ```
public final class TemporaryDirectory: Sendable {
    /// The directory's path.
    public let path: String
    private let keep: Bool

    /// A directory that cannot be made.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Makes a new, empty directory; `keep` leaves it (and its files) behind.
    public init(keep: Bool = false) throws(Failure) {
        let base = FileManager.default.temporaryDirectory.path
        var template = Array((base + "/\(ProcessInfo.processInfo.processName).XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Failure(description: "cannot make a temporary directory under \(base): \(String(cString: strerror(errno)))")
        }
        path = String(cString: made)
        self.keep = keep
    }

    deinit { if !keep { remove() } }

    /// The directory as a file URL.
    public var url: URL { URL(fileURLWithPath: path) }

    /// The path of the file `name` in the directory.
    public func file(_ name: String) -> String { path + "/" + name }

    /// Writes `text` to the file `name` in the directory and returns its path.
    public func file(_ name: String, _ text: String) throws -> String {
        let path = file(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Removes the directory and everything in it now (nothing if it is gone).
    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}
