/// Constants of the `.navlog` format; each is defined in
/// `schemas/navlog-format.md` (the section is named beside it).
public enum NavLogFormat {
    /// Format major version: a reader refuses a file with a different major
    /// ("Versioning").
    public static let majorVersion: UInt16 = 1
    /// Format minor version: additions a reader of the same major may ignore.
    public static let minorVersion: UInt16 = 0

    /// Magic of an LZ4 frame ("Frames").
    public static let lz4FrameMagic: UInt32 = 0x184D_2204
    /// Skippable frames use 0x184D2A50 through 0x184D2A5F ("Frames").
    public static let skippableMagicMask: UInt32 = 0xFFFF_FFF0
    public static let skippableMagicBase: UInt32 = 0x184D_2A50
    /// The skippable magic navlog writes its own frames with ("Frames").
    public static let navlogSkippableMagic: UInt32 = 0x184D_2A5E

    /// Record tags, the first four bytes of a navlog skippable frame's payload.
    public enum Tag: UInt32, Sendable, CaseIterable {
        /// `NLHD`: the file header ("Header record").
        case header = 0x4448_4C4E
        /// `NLBK`: one block's index entry ("Block entry").
        case block = 0x4B42_4C4E
        /// `NLCP`: a checkpoint of the projected state ("Checkpoint record").
        case checkpoint = 0x5043_4C4E
        /// `NLFT`: the footer, the whole index at close ("Footer record").
        case footer = 0x5446_4C4E
        /// `NLTR`: the fixed-size trailer that ends a closed file ("Trailer record").
        case trailer = 0x5254_4C4E

        /// The four ASCII letters.
        public var name: String {
            let v = rawValue
            return String(decoding: [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)],
                          as: UTF8.self)
        }
    }

    /// Payload bytes of each fixed-size record (tag and checksum included).
    public static let headerPayloadBytes = 32
    public static let blockEntryPayloadBytes = 112
    public static let trailerPayloadBytes = 16
    /// The trailer frame: 8 bytes of skippable-frame header plus its payload.
    public static let trailerFrameBytes = 8 + trailerPayloadBytes
    /// Fixed part of a checkpoint payload before the embedded LZ4 frame.
    public static let checkpointFixedBytes = 32
    /// Fixed part of a footer payload before its entries.
    public static let footerFixedBytes = 40
    /// One checkpoint reference in the footer.
    public static let checkpointRefBytes = 32

    /// The largest skippable payload a reader accepts for a checkpoint (64 MiB)
    /// and the largest state JSON inside it.
    public static let maxCheckpointBytes = 64 << 20
    /// The largest decompressed data block a reader accepts by default (64 MiB).
    public static let maxBlockContentBytes = 64 << 20
    /// The largest footer a writer writes; a bigger index is left to the walk.
    public static let maxFooterBytes = 1 << 30
}
