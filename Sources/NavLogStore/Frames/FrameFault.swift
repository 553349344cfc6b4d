/// Where a frame runs past the end of the file before its extent is known.
public enum Truncation: Hashable, Sendable, CustomStringConvertible {
    /// Fewer than 4 bytes where a frame magic should be.
    case magic(bytes: Int)
    /// A skippable frame's 8-byte header cut short.
    case skippableHeader
    /// A skippable frame claiming more bytes than remain.
    case skippable(claims: Int, remain: Int64)
    /// An LZ4 frame header that needs more bytes than remain.
    case lz4Header(needs: Int, remain: Int)
    /// The file ends inside its preamble.
    case preamble(bytes: Int)

    public var description: String {
        switch self {
        case .magic(let bytes): "\(bytes) bytes where a frame magic (4 bytes) should be"
        case .skippableHeader: "skippable frame header cut short"
        case .skippable(let claims, let remain): "skippable frame claims \(claims) bytes, \(remain) remain in the file"
        case .lz4Header(let needs, let remain): "LZ4 frame header needs \(needs) bytes, \(remain) remain"
        case .preamble(let bytes): "file ends inside its preamble (\(bytes) of \(NavLogFormat.preambleBytes) bytes)"
        }
    }
}

/// Bytes that are not a valid frame start.
public enum FrameFault: Hashable, Sendable, CustomStringConvertible {
    /// Neither an LZ4 nor a skippable frame magic.
    case badMagic(UInt32)
    /// An LZ4 frame header that breaks a rule of the LZ4 frame format.
    case lz4Header(LZ4HeaderFault)
    /// An LZ4 block larger than its frame allows.
    case lz4BlockTooLarge(offset: Int64, bytes: Int, max: Int)

    public var description: String {
        switch self {
        case .badMagic(let magic): "bad magic \(hex(magic)) (neither an LZ4 nor a skippable frame)"
        case .lz4Header(let fault): fault.description
        case .lz4BlockTooLarge(let offset, let bytes, let max):
            "LZ4 block at byte \(offset) claims \(bytes) bytes, over its frame's maximum of \(max)"
        }
    }
}

/// What is wrong with an LZ4 frame header (``LZ4FrameDescriptor/parse(_:)``).
public enum LZ4HeaderFault: Hashable, Sendable, CustomStringConvertible {
    case notLZ4Magic
    case version(UInt8)
    case reservedFLGBit
    case reservedBDBits
    case blockSizeID(UInt8)
    case checksum

    public var description: String {
        switch self {
        case .notLZ4Magic: "not an LZ4 frame magic"
        case .version(let v): "LZ4 frame version \(v) is not 1"
        case .reservedFLGBit: "LZ4 frame reserved FLG bit set"
        case .reservedBDBits: "LZ4 frame reserved BD bits set"
        case .blockSizeID(let id): "LZ4 block size ID \(id) is not 4–7"
        case .checksum: "LZ4 frame header checksum mismatch"
        }
    }
}
