#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written through a buffer.
final class BufferedFile {
    struct Failure: Error { let message: String }
    private let fd: Int32
    private let path: String
    private var buffer: [UInt8] = []

    init(creating path: String) throws(Failure) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw Failure(message: "\(path): cannot create: \(String(cString: strerror(errno)))") }
    }

    func write(_ bytes: [UInt8]) throws(Failure) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { try flush() }
    }

    func flush() throws(Failure) {
        let ok = buffer.withUnsafeBufferPointer { Glibc_writeAll(fd, $0) }
        buffer.removeAll(keepingCapacity: true)
        guard ok else { throw Failure(message: "\(path): cannot write: \(String(cString: strerror(errno)))") }
    }

    func close() throws(Failure) {
        #if canImport(Glibc)
        defer { _ = Glibc.close(fd) }
        #else
        defer { _ = Darwin.close(fd) }
        #endif
        try flush()
    }
}

/// Writes all of `bytes` to `fd`, retrying on EINTR; `false` on failure.
func Glibc_writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
        let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        #else
        let n = Darwin.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        #endif
        if n < 0 { if errno == EINTR { continue }; return false }
        offset += n
    }
    return true
}
