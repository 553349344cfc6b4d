// Compression/: gzip through zlib: deflate for exports, inflate for uploads.

/// Gzip in memory, for request bodies (the recorder's uploads).
public enum Gzip {
    /// `bytes` as one gzip member (RFC 1952), which `gzip -dc` and any
    /// HTTP server's `Content-Encoding: gzip` read.
    ///
    /// ```swift
    /// let body = try Gzip.compress(Array(ndjson.utf8))
    /// ```
    ///
    /// - Parameter level: zlib's level, 1 (fastest, the default: event lines
    ///   compress well at any level) to 9 (smallest).
    /// - Throws: ``FileError`` when zlib cannot start or fails.
    /// - Complexity: O(n).
    public static func compress(_ bytes: [UInt8], level: Int32 = 1) throws(FileError) -> [UInt8] {
        let deflater = try GzipDeflater(name: "gzip", level: min(max(level, 1), 9))
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count / 4 + 64)
        func append(_ chunk: UnsafeRawBufferPointer) { result.append(contentsOf: chunk) }
        try bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(FileError) in try deflater.write(buffer, emit: append) }
        }.get()
        try deflater.finish(emit: append)
        return result
    }
}
