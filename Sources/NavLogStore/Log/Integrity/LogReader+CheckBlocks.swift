// Log/Integrity/: `verify` and `repair` of a `.navlog` log.

extension LogReader {
    /// Checks every committed block's data frame against its checksums
    /// without decompressing it: the LZ4 frame header's checksum, each LZ4
    /// block's checksum (XXH32 of its compressed bytes), that the end mark
    /// ends the frame where the entry says, and that the frame's content
    /// checksum is the one the entry records. Throws the first damage, naming
    /// the file, the byte offset of the damaged part and the block's frame and
    /// first seq. The unfinished tail, if any, was verified when the log was opened.
    ///
    /// What `bisect` and `diff` answer from the index (state-chain hashes,
    /// checkpoints) does not read most blocks; this is how they can check
    /// them first (`--check-blocks`).
    ///
    /// - Returns: the compressed bytes checked.
    /// - Complexity: O(file size): every data frame is read and hashed once
    ///   (no decompression), in pieces of at most one block's frame.
    @discardableResult
    public func checkBlocks() throws(FileError) -> Int64 {
        let frame = ByteBuffer(capacity: 1 << 20)
        var checked: Int64 = 0
        for entry in blocks {
            func damage(_ fault: DataFrameFault, at offset: Int) -> FileError {
                FileError.corrupt(path, .dataFrame(fault), offset: entry.dataOffset + Int64(offset),
                                 frame: entry.dataFrameIndex, seq: entry.firstSeq)
            }
            frame.removeAll()
            guard frame.reserve(entry.dataLength, limit: 1 << 30) else {
                throw damage(.implausibleLength(entry.dataLength), at: 0)
            }
            let n = try file.read(count: entry.dataLength, at: entry.dataOffset, appendingTo: frame)
            guard n == entry.dataLength else {
                throw damage(.endsInside(read: n, length: entry.dataLength), at: n)
            }
            let bytes = frame.bytes
            let descriptor: LZ4FrameDescriptor
            switch LZ4FrameDescriptor.parse(bytes) {
            case .header(let d): descriptor = d
            case .needMore: throw damage(.headerCutShort, at: 0)
            case .invalid(let fault): throw damage(.header(fault), at: 0)
            }
            guard descriptor.blockChecksum, descriptor.contentChecksum else {
                // Not how navlog writes a block: let the decoder check the content instead.
                try requireBlockReader().read(entry)
                checked += Int64(entry.dataLength)
                continue
            }
            var position = descriptor.headerBytes
            while true {
                guard position + 4 <= bytes.count else { throw damage(.noEndMark, at: position) }
                let word = bytes.loadLE32(position)
                if word == 0 { break }
                let size = Int(word & 0x7FFF_FFFF)
                let end = position + 4 + size
                guard size <= descriptor.maxBlockBytes, end + 4 <= bytes.count else {
                    throw damage(.blockRunsPast(bytes: size), at: position)
                }
                let stored = bytes.loadLE32(end)
                let actual = XXHash32.hash(UnsafeRawBufferPointer(rebasing: bytes[(position + 4)..<end]))
                guard stored == actual else {
                    throw damage(.blockChecksum(stored: stored, computed: actual), at: position)
                }
                position = end + 4
            }
            guard position + 8 == bytes.count else {
                throw damage(.endMark(at: position, frameBytes: bytes.count), at: position)
            }
            let stored = bytes.loadLE32(position + 4)
            guard stored == entry.contentChecksum else {
                throw damage(.contentChecksum(stored: stored, entry: entry.contentChecksum), at: position + 4)
            }
            checked += Int64(entry.dataLength)
        }
        return checked
    }
}
