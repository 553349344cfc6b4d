/// The header record (`NLHD`), the second frame of every `.navlog` file, right
/// after a zero-byte LZ4 frame: the format version and the writer's settings
/// (schemas/navlog-format.md, "Header record").
public struct FileHeader: Hashable, Sendable {
    /// Format major version; a reader refuses any major it does not know.
    public var majorVersion: UInt16
    /// Format minor version; additions only, which older readers skip.
    public var minorVersion: UInt16
    /// Raw block size the writer seals at (informational).
    public var blockTargetBytes: UInt32
    /// Events between checkpoints, K (informational: readers use the index).
    public var checkpointInterval: UInt32
    /// The LZ4 block size ID the writer uses (4–7, informational).
    public var lz4BlockSizeID: UInt8

    public init(blockTargetBytes: UInt32, checkpointInterval: UInt32, lz4BlockSizeID: UInt8) {
        majorVersion = NavLogFormat.majorVersion
        minorVersion = NavLogFormat.minorVersion
        self.blockTargetBytes = blockTargetBytes
        self.checkpointInterval = checkpointInterval
        self.lz4BlockSizeID = lz4BlockSizeID
    }

    /// Appends the whole skippable frame.
    func appendFrame(to out: inout [UInt8]) {
        var body: [UInt8] = []
        body.appendLE(majorVersion)
        body.appendLE(minorVersion)
        body.appendLE(UInt32(0))                 // flags
        body.appendLE(blockTargetBytes)
        body.appendLE(checkpointInterval)
        body.appendLE(UInt32(lz4BlockSizeID))
        body.appendLE(UInt32(0))                 // reserved
        SkippableFrame.appendRecord(tag: .header, body: body, to: &out)
    }

    /// Decodes a checked payload (tag and checksum already verified).
    init?(payload p: UnsafeRawBufferPointer) {
        guard p.count == NavLogFormat.headerPayloadBytes else { return nil }
        majorVersion = p.loadLE16(4)
        minorVersion = p.loadLE16(6)
        blockTargetBytes = p.loadLE32(12)
        checkpointInterval = p.loadLE32(16)
        lz4BlockSizeID = UInt8(truncatingIfNeeded: p.loadLE32(20))
    }
}
