/// The bytes every `.navlog` file starts with, and how a reader and the
/// verifier tell a damaged header from a file that is not a navlog at all
/// (schemas/navlog-format.md, "Preamble").
enum Preamble {
    /// The fixed bytes: the zero-byte LZ4 frame, the header record's
    /// skippable-frame header and its `NLHD` tag (27 bytes).
    static let fixedBytes: [UInt8] = {
        var bytes = NavLogFormat.emptyFrame
        bytes.appendLE(NavLogFormat.navlogSkippableMagic)
        bytes.appendLE(UInt32(NavLogFormat.headerPayloadBytes))
        bytes.appendLE(NavLogFormat.Tag.header.rawValue)
        return bytes
    }()

    /// Where the first `bytes` of a file part from ``fixedBytes``.
    struct Difference {
        /// The first byte that differs.
        var offset: Int
        /// Whether the file is a navlog whose preamble is damaged (a byte or
        /// two differ and the rest match) rather than some other file.
        var isDamage: Bool
        /// Whether the file is a healthy segment of a store (its `NLSH`
        /// header intact): not a log, and not damage either.
        var isSegment = false

        /// The frame the byte is in: 0 the empty frame, 1 the header record.
        var frame: Int { offset < NavLogFormat.emptyFrame.count ? 0 : 1 }

        /// The problem, in the words every command uses.
        var damage: LogFault { isDamage ? .headerByte(offset: offset) : .notANavlog(foreign) }

        /// How the file's start differs, as a file that is not a navlog.
        var foreign: NotANavlog { frame == 0 ? .noEmptyFrame(offset: offset) : .noHeader(offset: offset) }

        /// The error a reader throws.
        func error(_ path: String) -> FileError {
            if isSegment {
                let slash = path.lastIndex(of: "/")
                let store = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
                return FileError(path: path, kind: .notANavlog(.segment(store: store)))
            }
            return FileError(path: path, kind: isDamage ? .corrupt(damage) : .notANavlog(foreign), offset: Int64(offset), frame: frame)
        }
    }

    /// Compares a file's first bytes with ``fixedBytes``; `nil` when they
    /// agree as far as they go. At most two differing bytes, with at least
    /// eight that agree, is damage; more is another kind of file (plain LZ4
    /// output, say, shares only the magic).
    static func difference(_ bytes: UnsafeRawBufferPointer) -> Difference? {
        let count = min(bytes.count, fixedBytes.count)
        var first: Int?
        var differing = 0
        for i in 0..<count where bytes[i] != fixedBytes[i] {
            first = first ?? i
            differing += 1
        }
        guard let first else { return nil }
        if SegmentHeader(preamble: bytes) != nil { return Difference(offset: first, isDamage: false, isSegment: true) }
        return Difference(offset: first, isDamage: differing <= 2 && count - differing >= 8)
    }

    /// Whether a file whose first bytes are `bytes` is meant to be a
    /// `.navlog` log rather than NDJSON: it starts with an LZ4 or skippable
    /// frame magic, or with a navlog preamble that is damaged
    /// (``difference(_:)``), which a reader then reports as such.
    static func isLog(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= 4 else { return false }
        let magic = bytes.loadLE32(0)
        if magic == NavLogFormat.lz4FrameMagic || SkippableFrame.isSkippable(magic) { return true }
        return difference(bytes)?.isDamage ?? false
    }
}
