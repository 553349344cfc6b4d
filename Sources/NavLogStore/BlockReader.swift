import NavLogCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads and decompresses one block's data frame, checking it against its
/// entry; the content stays in a reused buffer, so a scan allocates once.
final class BlockReader {
    let file: LogFile
    private let decoder: LZ4FrameDecoder
    private let compressed = ByteBuffer(capacity: 64 << 10)
    /// The last block's content (canonical lines, each ending in `\n`).
    let content = ByteBuffer(capacity: 256 << 10)
    /// The limit on a block's decompressed size.
    let maxContentBytes: Int
    private var parser = EventLineParser()

    init(file: LogFile, maxContentBytes: Int = NavLogFormat.maxBlockContentBytes) throws(LogError) {
        self.file = file
        self.maxContentBytes = maxContentBytes
        do { decoder = try LZ4FrameDecoder() } catch {
            throw LogError(path: file.path, kind: .corrupt("cannot create an LZ4 decoder: \(error)"))
        }
    }

    /// Decompresses `entry`'s data frame into ``content``, verifying every
    /// LZ4 checksum, the size and the checksum the entry records.
    func read(_ entry: BlockEntry) throws(LogError) {
        content.removeAll()
        func corrupt(_ why: String) -> LogError {
            LogError.corrupt(file.path, "data frame: \(why)", offset: entry.dataOffset, frame: entry.dataFrameIndex,
                             seq: entry.firstSeq)
        }
        guard entry.contentSize <= maxContentBytes else {
            throw corrupt("content size \(entry.contentSize) is over the limit of \(maxContentBytes)")
        }
        compressed.removeAll()
        guard compressed.reserve(entry.dataLength, limit: maxContentBytes * 2 + (1 << 20)) else {
            throw corrupt("frame length \(entry.dataLength) is implausible")
        }
        let n = try file.read(count: entry.dataLength, at: entry.dataOffset, appendingTo: compressed)
        guard n == entry.dataLength else { throw corrupt("file ends inside the frame (\(n) of \(entry.dataLength) bytes)") }
        do {
            let used = try decoder.decodeFrame(compressed.bytes, maxContentBytes: entry.contentSize, into: content)
            guard used == entry.dataLength else { throw corrupt("frame is \(used) bytes, entry says \(entry.dataLength)") }
        } catch let error as LZ4FrameError {
            throw corrupt(error.description)
        } catch let error as LogError {
            throw error
        } catch {
            throw corrupt("\(error)")
        }
        guard content.count == entry.contentSize else {
            throw corrupt("content is \(content.count) bytes, entry says \(entry.contentSize)")
        }
        let stored = compressed.bytes.loadLE32(entry.dataLength - 4)
        guard stored == entry.contentChecksum else {
            throw corrupt("content checksum \(hex(stored)) differs from the entry's \(hex(entry.contentChecksum))")
        }
    }

    /// Parses a line of the last block read; a line that does not parse is damage.
    func parse(_ line: UnsafeRawBufferPointer, of entry: BlockEntry) throws(LogError) -> Event {
        do { return try parser.parse(line) } catch {
            throw LogError.corrupt(file.path, "stored line does not parse: \(error)", offset: entry.dataOffset,
                                   frame: entry.dataFrameIndex, seq: entry.firstSeq)
        }
    }

    /// Decodes the complete, verified LZ4 blocks of an open frame into
    /// ``content``, cut after its last `\n`. Returns why decoding stopped
    /// early, if it did (the content before that point is still good).
    func readOpen(_ open: OpenFrame) throws(LogError) -> LZ4FrameError? {
        content.removeAll()
        compressed.removeAll()
        guard compressed.reserve(open.completeLength, limit: maxContentBytes * 2 + (1 << 20)) else {
            return LZ4FrameError(call: "LZ4F_decompress", reason: "open frame of \(open.completeLength) bytes is implausible")
        }
        try file.read(count: open.completeLength, at: open.offset, appendingTo: compressed)
        let progress = decoder.decodePrefix(compressed.bytes, maxContentBytes: maxContentBytes, into: content)
        // Keep whole lines only.
        var end = content.count
        while end > 0 && content.base.load(fromByteOffset: end - 1, as: UInt8.self) != 0x0A { end -= 1 }
        content.count = end
        return progress.error
    }
}

/// Calls `body` with each line (without its `\n`) of `bytes`, and its offset.
@inline(__always)
func forEachLine(
    in bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Int) throws(LogError) -> Bool
) throws(LogError) {
    guard let base = bytes.baseAddress else { return }
    var start = 0
    let n = bytes.count
    while start < n {
        let remaining = n - start
        let end: Int
        if let p = memchr(base + start, 0x0A, remaining) {
            end = base.distance(to: UnsafeRawPointer(p))
        } else {
            end = n
        }
        let line = UnsafeRawBufferPointer(start: base + start, count: end - start)
        if try !body(line, start) { return }
        start = end + 1
    }
}

/// The offset of the first `\n` at or after `start` in `bytes`, or `bytes.count`.
@inline(__always)
func lineEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    guard start < bytes.count, let base = bytes.baseAddress else { return bytes.count }
    guard let p = memchr(base + start, 0x0A, bytes.count - start) else { return bytes.count }
    return base.distance(to: UnsafeRawPointer(p))
}
