#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A new file in the system's temporary directory (`$TMPDIR`, else `/tmp`)
/// that navlog fills once and reads back by its path: standard input set
/// down for a second pass, an uploaded log for the log reader. Its owner
/// removes it (``FileSystem/remove(_:)``); the descriptor is closed with the value.
///
/// ```swift
/// let spool = try TemporaryFile(named: "navlog-stdin-", suffix: "")
/// try spool.write(bytes)
/// ```
struct TemporaryFile: ~Copyable {
    let path: String
    private let fd: Int32

    /// The directory temporary files go in: `$TMPDIR` when set and not empty, else `/tmp`.
    static var directory: String {
        guard let set = getenv("TMPDIR").map({ String(cString: $0) }), !set.isEmpty else { return "/tmp" }
        return DirectoryPath.trimmed(set)
    }

    /// Makes `<directory>/<prefix>XXXXXX<suffix>`, a new file no other process has opened.
    init(named prefix: String, suffix: String) throws(FileError) {
        var template = Array("\(Self.directory)/\(prefix)XXXXXX\(suffix)".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        guard fd >= 0 else { throw FileError(path: path, kind: .io(call: "mkstemps", errno: errno)) }
        // Close-on-exec, as every descriptor the module opens (mkostemps is not in every C library's Swift module).
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.path = path
        self.fd = fd
    }

    /// Appends `bytes`.
    func write(_ bytes: [UInt8]) throws(FileError) { try written(bytes.withUnsafeBytes { DescriptorWrite.all($0, to: fd) }) }

    /// Appends the bytes `bytes` points at.
    func write(_ bytes: UnsafeRawBufferPointer) throws(FileError) { try written(DescriptorWrite.all(bytes, to: fd)) }

    private func written(_ failed: Int32?) throws(FileError) {
        if let failed { throw FileError(path: path, kind: .io(call: "write", errno: failed)) }
    }

    deinit { close(fd) }
}
