#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// One gzip member (RFC 1952) made by zlib's deflate, handed out in chunks
/// as it is made: the only caller of zlib's deflate functions. A
/// ``GzipFile`` writes the chunks to a file; ``Gzip/compress(_:level:)``
/// gathers them in memory. Not thread-safe.
final class GzipDeflater {
    private static let chunk = 1 << 16

    /// Named in errors (a file's path, or what is being compressed).
    let name: String
    private let stream: UnsafeMutablePointer<z_stream>
    private var out: [UInt8]
    private(set) var finished = false

    /// A deflater at zlib's `level` (1 fastest … 9 smallest).
    init(name: String, level: Int32) throws(FileError) {
        self.name = name
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        out = [UInt8](repeating: 0, count: Self.chunk)
        guard navlog_deflate_init_gzip(stream, level) == Z_OK else {
            stream.deallocate()
            throw FileError.io(path: name, call: "deflateInit2", errno: ENOMEM)
        }
    }

    deinit {
        if !finished { deflateEnd(stream) }
        stream.deallocate()
    }

    /// Compresses `bytes`, handing each full chunk of output to `emit`.
    func write(_ bytes: UnsafeBufferPointer<UInt8>, emit: (UnsafeRawBufferPointer) throws(FileError) -> Void) throws(FileError) {
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
        stream.pointee.avail_in = UInt32(bytes.count)
        try deflateAll(flush: Z_NO_FLUSH, emit: emit)
    }

    /// Ends the member (its CRC-32 and length), handing the rest to `emit`.
    func finish(emit: (UnsafeRawBufferPointer) throws(FileError) -> Void) throws(FileError) {
        guard !finished else { return }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try deflateAll(flush: Z_FINISH, emit: emit)
        deflateEnd(stream)
        finished = true
    }

    /// Runs deflate until it has taken all its input (and, with `Z_FINISH`,
    /// made its trailer), handing out each chunk it makes.
    private func deflateAll(flush: Int32, emit: (UnsafeRawBufferPointer) throws(FileError) -> Void) throws(FileError) {
        while true {
            let status: Int32 = out.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                return deflate(stream, flush)
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw FileError.io(path: name, call: "deflate", errno: EIO)
            }
            let produced = out.count - Int(stream.pointee.avail_out)
            if produced > 0 {
                try out.withUnsafeBytes { buffer in
                    Result { () throws(FileError) in try emit(UnsafeRawBufferPointer(rebasing: buffer[..<produced])) }
                }.get()
            }
            if flush == Z_FINISH ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { return }
        }
    }
}
