// Export/: Export part files: gzip parts, partitioned by day.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A new file written as one gzip member (RFC 1952) through zlib's deflate:
/// `gzip -dc` reads it, and so do DuckDB, Spark and BigQuery. Created with
/// `O_EXCL`: an existing file is never overwritten. Not thread-safe.
final class GzipFile {
    /// zlib's level: 1, its fastest, since an export is read far more often
    /// than it is stored and the rows compress well at any level.
    static let level: Int32 = 1

    let path: String
    private let file: OpenFile
    /// Compressed bytes written so far: where the next ones go.
    private var offset: Int64 = 0
    private let deflater: GzipDeflater
    /// Bytes handed to ``write(_:)`` so far (before compression).
    private(set) var uncompressedBytes = 0

    init(creating path: String) throws(FileError) {
        self.path = path
        deflater = try GzipDeflater(name: path, level: Self.level)
        file = try OpenFile(path: path, mode: .createNew)
    }

    /// Compresses `bytes` onto the file.
    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(FileError) {
        uncompressedBytes += bytes.count
        try deflater.write(bytes, emit: append)
    }

    /// Ends the gzip member (its CRC-32 and length) and closes the file.
    func finish() throws(FileError) {
        guard !deflater.finished else { return }
        try deflater.finish(emit: append)
        file.close()
    }

    /// Writes a chunk of compressed bytes after the ones before it.
    private func append(_ chunk: UnsafeRawBufferPointer) throws(FileError) {
        try file.write(chunk, at: offset)
        offset += Int64(chunk.count)
    }
}
