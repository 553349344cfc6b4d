#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CZlib

/// Gzip bodies for `navlog-bench serve`: one batch compressed in memory, and
/// a "gzip bomb" made by deflating zeros a chunk at a time, so the bench
/// never holds the bytes the bomb decompresses to.
enum GzipBody {
    /// `bytes` as one gzip member at zlib's `level`.
    static func compress(_ bytes: [UInt8], level: Int32 = 1) -> [UInt8] {
        var deflater = Deflater(level: level)
        var out = bytes.withUnsafeBufferPointer { deflater.add($0, finish: false) }
        out += deflater.add(UnsafeBufferPointer(start: nil, count: 0), finish: true)
        return out
    }

    /// A gzip member that decompresses to `bytes` zero bytes (level 9: about
    /// 1 KiB of output per MiB of zeros), deflated 1 MiB at a time.
    static func bomb(decompressing bytes: Int) -> [UInt8] {
        var deflater = Deflater(level: 9)
        let zeros = [UInt8](repeating: 0, count: 1 << 20)
        var out: [UInt8] = []
        var left = bytes
        while left > 0 {
            let n = min(left, zeros.count)
            out += zeros.withUnsafeBufferPointer { deflater.add(UnsafeBufferPointer(rebasing: $0[..<n]), finish: false) }
            left -= n
        }
        out += deflater.add(UnsafeBufferPointer(start: nil, count: 0), finish: true)
        return out
    }

    /// zlib's deflate writing gzip; ends its stream when finished.
    private struct Deflater: ~Copyable {
        private let stream: UnsafeMutablePointer<z_stream>
        private var chunk = [UInt8](repeating: 0, count: 1 << 16)

        init(level: Int32) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            precondition(navlog_deflate_init_gzip(stream, level) == Z_OK, "deflateInit2 failed")
        }

        deinit {
            deflateEnd(stream)
            stream.deallocate()
        }

        /// Compresses `input`; with `finish`, also ends the member. Returns the bytes made.
        mutating func add(_ input: UnsafeBufferPointer<UInt8>, finish: Bool) -> [UInt8] {
            stream.pointee.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
            stream.pointee.avail_in = UInt32(input.count)
            var out: [UInt8] = []
            let flush = finish ? Z_FINISH : Z_NO_FLUSH
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress
                    stream.pointee.avail_out = UInt32(buffer.count)
                    return deflate(stream, flush)
                }
                precondition(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, "deflate failed: \(status)")
                let produced = chunk.count - Int(stream.pointee.avail_out)
                out += chunk[..<produced]
                if finish ? status == Z_STREAM_END : (stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0) { return out }
            }
        }
    }
}
