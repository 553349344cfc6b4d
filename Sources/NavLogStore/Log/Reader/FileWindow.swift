/// Buffered positioned reads for walking a file's frames: each read fetches
/// at least `readAhead` bytes, so the many small headers of a file made of
/// small frames cost few system calls, while a big frame is skipped over
/// without reading it.
final class FileWindow {
    let file: OpenFile
    /// The file size the walk works against (a growing file is re-measured by the caller).
    var fileSize: Int64
    private let buffer = ByteBuffer(capacity: 64 << 10)
    private var windowStart: Int64 = 0
    private let readAhead: Int
    /// The bytes read from the file so far.
    private(set) var bytesRead = 0

    init(file: OpenFile, fileSize: Int64, readAhead: Int = 16 << 10) {
        self.file = file
        self.fileSize = fileSize
        self.readAhead = readAhead
    }

    /// The bytes at `offset ..< offset + count`, fewer at end of file; valid
    /// until the next call. `count` must already be bounded by the caller.
    /// Without `readingAhead`, a read fetches those bytes only (for a reader
    /// that goes backwards, or reads one record).
    func view(at offset: Int64, count: Int, readingAhead: Bool = true) throws(FileError) -> UnsafeRawBufferPointer {
        let available = Int(max(0, min(Int64(count), fileSize - offset)))
        if offset >= windowStart, offset + Int64(available) <= windowStart + Int64(buffer.count) {
            let start = Int(offset - windowStart)
            return UnsafeRawBufferPointer(start: buffer.base + start, count: available)
        }
        buffer.removeAll()
        windowStart = offset
        let want = Int(max(0, min(Int64(max(available, readingAhead ? readAhead : 0)), fileSize - offset)))
        try file.read(count: want, at: offset, appendingTo: buffer)
        bytesRead += buffer.count
        return UnsafeRawBufferPointer(start: buffer.base, count: min(available, buffer.count))
    }

    /// Forgets what is buffered (after the file changed).
    func invalidate() {
        buffer.removeAll()
        windowStart = 0
    }
}
