/// What lies at one offset of a `.navlog` file, found from headers alone
/// (schemas/navlog-format.md §4, §8): the building block of the walk.
enum FrameProbe: Sendable {
    /// The end of the file.
    case endOfFile
    /// An LZ4 frame. `length` is its full length when its end mark (and
    /// content checksum) lie within the file; otherwise it runs past the end
    /// and `completeLength` covers its header and complete LZ4 blocks.
    case lz4(LZ4FrameExtent)
    /// A skippable frame lying wholly within the file.
    case skippable(magic: UInt32, payloadSize: Int)
    /// A frame that runs past the end of the file before its extent is known.
    case truncated(Truncation)
    /// Bytes that are not a valid frame start.
    case invalid(FrameFault)
}

/// Where an LZ4 frame's parts are.
struct LZ4FrameExtent: Hashable, Sendable {
    var descriptor: LZ4FrameDescriptor
    /// The whole frame's length, when it is complete.
    var length: Int?
    /// Bytes of header plus every LZ4 block that lies wholly in the file.
    var completeLength: Int
    /// The stored content checksum (when complete and the frame has one).
    var contentChecksum: UInt32?
    /// How many LZ4 blocks the frame holds (complete ones, if unfinished).
    var blockCount: Int
}

extension FileWindow {
    /// Reads the frame header at `offset` and, for an LZ4 frame, its LZ4
    /// block headers, to find where the frame ends.
    ///
    /// - Complexity: O(LZ4 blocks in the frame) small reads; no decompression.
    func probe(at offset: Int64) throws(FileError) -> FrameProbe {
        let remaining = fileSize - offset
        if remaining <= 0 { return .endOfFile }
        let head = try view(at: offset, count: 8)
        if head.count < 4 { return .truncated(.magic(bytes: head.count)) }
        let magic = head.loadLE32(0)
        if SkippableFrame.isSkippable(magic) {
            guard head.count >= 8 else { return .truncated(.skippableHeader) }
            let size = Int(head.loadLE32(4))
            if Int64(size) > remaining - 8 {
                return .truncated(.skippable(claims: size, remain: remaining - 8))
            }
            return .skippable(magic: magic, payloadSize: size)
        }
        guard magic == NavLogFormat.lz4FrameMagic else {
            return .invalid(.badMagic(magic))
        }
        let headerView = try view(at: offset, count: 19)
        let descriptor: LZ4FrameDescriptor
        switch LZ4FrameDescriptor.parse(headerView) {
        case .header(let d): descriptor = d
        case .needMore(let n): return .truncated(.lz4Header(needs: n, remain: headerView.count))
        case .invalid(let fault): return .invalid(.lz4Header(fault))
        }
        var position = Int64(descriptor.headerBytes)
        var blocks = 0
        let checksumBytes = descriptor.blockChecksum ? 4 : 0
        while true {
            let sizeView = try view(at: offset + position, count: 4)
            if sizeView.count < 4 {
                return .lz4(LZ4FrameExtent(descriptor: descriptor, length: nil, completeLength: Int(position),
                                           contentChecksum: nil, blockCount: blocks))
            }
            let word = sizeView.loadLE32(0)
            if word == 0 {
                // End mark, then the content checksum.
                let end = position + 4 + (descriptor.contentChecksum ? 4 : 0)
                if end > remaining {
                    return .lz4(LZ4FrameExtent(descriptor: descriptor, length: nil, completeLength: Int(position),
                                               contentChecksum: nil, blockCount: blocks))
                }
                var stored: UInt32?
                if descriptor.contentChecksum {
                    stored = try view(at: offset + position + 4, count: 4).loadLE32(0)
                }
                return .lz4(LZ4FrameExtent(descriptor: descriptor, length: Int(end), completeLength: Int(end),
                                           contentChecksum: stored, blockCount: blocks))
            }
            let size = Int(word & 0x7FFF_FFFF)
            guard size <= descriptor.maxBlockBytes else {
                return .invalid(.lz4BlockTooLarge(offset: offset + position, bytes: size, max: descriptor.maxBlockBytes))
            }
            let next = position + 4 + Int64(size) + Int64(checksumBytes)
            if next > remaining {
                return .lz4(LZ4FrameExtent(descriptor: descriptor, length: nil, completeLength: Int(position),
                                           contentChecksum: nil, blockCount: blocks))
            }
            position = next
            blocks += 1
        }
    }
}
