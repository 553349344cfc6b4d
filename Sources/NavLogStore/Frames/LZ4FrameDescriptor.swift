/// The header of an LZ4 frame, read without liblz4 so that the walk can find
/// where each frame ends without decompressing it (LZ4 frame format §
/// "Frame Descriptor"; schemas/navlog-format.md, "Data frames").
///
/// `magic (4) | FLG (1) | BD (1) | content size (0/8) | dict ID (0/4) | HC (1)`
struct LZ4FrameDescriptor: Hashable, Sendable {
    /// Bytes from the magic through HC.
    var headerBytes: Int
    var independentBlocks: Bool
    var blockChecksum: Bool
    var contentChecksum: Bool
    /// The content size the header claims, when present (never trusted for allocation).
    var contentSize: UInt64?
    /// The largest LZ4 block this frame may hold.
    var maxBlockBytes: Int

    enum Parse: Hashable, Sendable {
        case header(LZ4FrameDescriptor)
        /// At least this many bytes (from the magic) are needed.
        case needMore(Int)
        case invalid(LZ4HeaderFault)
    }

    /// Parses the header at the start of `b`, which begins with the LZ4 magic.
    static func parse(_ b: UnsafeRawBufferPointer) -> Parse {
        guard b.count >= 7 else { return .needMore(7) }
        guard b.loadLE32(0) == NavLogFormat.lz4FrameMagic else { return .invalid(.notLZ4Magic) }
        let flg = b[4], bd = b[5]
        guard flg >> 6 == 1 else { return .invalid(.version(flg >> 6)) }
        guard flg & 0x02 == 0 else { return .invalid(.reservedFLGBit) }
        guard bd & 0x8F == 0 else { return .invalid(.reservedBDBits) }
        let sizeID = Int(bd >> 4 & 0x7)
        guard sizeID >= 4 else { return .invalid(.blockSizeID(UInt8(sizeID))) }
        let hasContentSize = flg & 0x08 != 0
        let hasDictID = flg & 0x01 != 0
        let headerBytes = 7 + (hasContentSize ? 8 : 0) + (hasDictID ? 4 : 0)
        guard b.count >= headerBytes else { return .needMore(headerBytes) }
        let descriptor = UnsafeRawBufferPointer(rebasing: b[4..<(headerBytes - 1)])
        let hc = UInt8(truncatingIfNeeded: XXHash32.hash(descriptor) >> 8)
        guard hc == b[headerBytes - 1] else { return .invalid(.checksum) }
        return .header(LZ4FrameDescriptor(
            headerBytes: headerBytes,
            independentBlocks: flg & 0x20 != 0,
            blockChecksum: flg & 0x10 != 0,
            contentChecksum: flg & 0x04 != 0,
            contentSize: hasContentSize ? b.loadLE64(6) : nil,
            maxBlockBytes: 1 << (8 + 2 * sizeID)))
    }
}

extension NavLogFormat {
    /// The zero-byte LZ4 frame every `.navlog` file starts with (the frame the
    /// `lz4` tool writes for empty input: 64 KB blocks, content checksum of
    /// nothing).
    public static let emptyFrame: [UInt8] = [
        0x04, 0x22, 0x4D, 0x18, 0x64, 0x40, 0xA7, 0x00, 0x00, 0x00, 0x00, 0x05, 0x5D, 0xCC, 0x02,
    ]

    /// Bytes of the preamble: the empty frame and the header frame.
    public static let preambleBytes = emptyFrame.count + 8 + headerPayloadBytes
}

extension LZ4FrameDescriptor {
    /// The end offsets, from the frame's start, of each complete LZ4 block in
    /// `frame` (which starts with this header), in order; stops at the end mark.
    func blockEnds(in frame: UnsafeRawBufferPointer) -> [Int] {
        var ends: [Int] = []
        var position = headerBytes
        let checksumBytes = blockChecksum ? 4 : 0
        while position + 4 <= frame.count {
            let word = frame.loadLE32(position)
            if word == 0 { break }
            let size = Int(word & 0x7FFF_FFFF)
            guard size <= maxBlockBytes else { break }
            let next = position + 4 + size + checksumBytes
            guard next <= frame.count else { break }
            ends.append(next)
            position = next
        }
        return ends
    }
}
