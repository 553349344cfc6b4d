#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// A new file written as one gzip member (RFC 1952) through zlib's deflate:
/// `gzip -dc` reads it, and so do DuckDB, Spark and BigQuery. Created with
/// `O_EXCL`: an existing file is never overwritten. Not thread-safe.
final class GzipFile {
    /// zlib's level: 1, its fastest, since an export is read far more often
    /// than it is stored and the rows compress well at any level.
    static let level: Int32 = 1
    private static let chunk = 1 << 16

    let path: String
    private let file: LogFile
    /// Compressed bytes written so far: where the next ones go.
    private var offset: Int64 = 0
    private let stream: UnsafeMutablePointer<z_stream>
    private var out: [UInt8]
    private var finished = false
    /// Bytes handed to ``write(_:)`` so far (before compression).
    private(set) var uncompressedBytes = 0

    init(creating path: String) throws(LogError) {
        self.path = path
        file = try LogFile(path: path, mode: .createNew)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        out = [UInt8](repeating: 0, count: Self.chunk)
        guard navlog_deflate_init_gzip(stream, Self.level) == Z_OK else {
            stream.deallocate()
            throw LogError.io(path: path, call: "deflateInit2", errno: ENOMEM)
        }
    }

    deinit {
        if !finished { deflateEnd(stream) }
        stream.deallocate()
    }

    /// Compresses `bytes` onto the file.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(LogError) {
        guard !bytes.isEmpty, let base = bytes.baseAddress else { return }
        uncompressedBytes += bytes.count
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base)
        stream.pointee.avail_in = UInt32(bytes.count)
        try deflateAll(flush: Z_NO_FLUSH)
    }

    /// Ends the gzip member (its CRC-32 and length) and closes the file.
    func finish() throws(LogError) {
        guard !finished else { return }
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try deflateAll(flush: Z_FINISH)
        deflateEnd(stream)
        finished = true
        file.close()
    }

    /// Runs deflate until it has taken all its input (and, with `Z_FINISH`,
    /// written its trailer), writing each full output chunk.
    private func deflateAll(flush: Int32) throws(LogError) {
        while true {
            let status: Int32 = out.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = UInt32(buffer.count)
                return deflate(stream, flush)
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw LogError.io(path: path, call: "deflate", errno: EIO)
            }
            let produced = out.count - Int(stream.pointee.avail_out)
            if produced > 0 {
                try out.withUnsafeBytes { buffer in
                    Result { () throws(LogError) in try file.write(UnsafeRawBufferPointer(rebasing: buffer[..<produced]), at: offset) }
                }.get()
                offset += Int64(produced)
            }
            if flush == Z_FINISH ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { return }
        }
    }
}
