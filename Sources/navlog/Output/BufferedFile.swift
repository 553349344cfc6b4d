#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NavLogStore

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
        let failure = buffer.withUnsafeBytes { DescriptorWrite.all($0, to: fd) }
        buffer.removeAll(keepingCapacity: true)
        if let failure { throw Failure(message: "\(path): cannot write: \(DescriptorWrite.reason(failure))") }
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
