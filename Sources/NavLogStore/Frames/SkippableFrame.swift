/// LZ4 skippable frames: `magic (4, LE) | size (4, LE) | payload (size bytes)`,
/// with magic 0x184D2A50–0x184D2A5F. The `lz4` tool and `LZ4F_decompress`
/// pass over them; navlog keeps all of its own records in them.
///
/// Every navlog record is a skippable frame with magic
/// ``NavLogFormat/navlogSkippableMagic`` whose payload starts with a
/// four-letter tag and ends with the XXH32 of everything before it.
public enum SkippableFrame {
    /// Whether `magic` is one of the 16 skippable-frame magics.
    @inlinable public static func isSkippable(_ magic: UInt32) -> Bool {
        magic & NavLogFormat.skippableMagicMask == NavLogFormat.skippableMagicBase
    }

    /// Appends a navlog record: the skippable-frame header, `tag`, `body`,
    /// and the XXH32 of tag and body.
    public static func appendRecord(tag: NavLogFormat.Tag, body: [UInt8], to out: inout [UInt8]) {
        appendRecord(tagValue: tag.rawValue, body: body, to: &out)
    }

    /// Appends a record whose tag is given as its 32-bit value (a log's or a
    /// segment store's tag).
    static func appendRecord(tagValue: UInt32, body: [UInt8], to out: inout [UInt8]) {
        out.appendLE(NavLogFormat.navlogSkippableMagic)
        out.appendLE(UInt32(4 + body.count + 4))
        let payloadStart = out.count
        out.appendLE(tagValue)
        out.append(contentsOf: body)
        out.appendLE(XXHash32.hash(out, range: payloadStart..<out.count))
    }

    /// Appends a navlog record to a ``ByteBuffer``.
    package static func appendRecord(tag: NavLogFormat.Tag, body: [UInt8], to out: ByteBuffer) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(body.count + 16)
        appendRecord(tag: tag, body: body, to: &bytes)
        out.append(bytes)
    }

    /// Why a navlog record's payload is not acceptable.
    public enum RecordProblem: Error, Hashable, Sendable, CustomStringConvertible {
        case tooShort(size: Int)
        case checksumMismatch(stored: UInt32, computed: UInt32)
        public var description: String {
            switch self {
            case .tooShort(let size): "record payload of \(size) bytes is shorter than tag and checksum"
            case .checksumMismatch(let stored, let computed):
                "record checksum mismatch (stored \(hex(stored)), computed \(hex(computed)))"
            }
        }
    }

    /// Checks a navlog record's payload (tag … checksum) and returns its tag's
    /// raw value, or the problem.
    public static func checkRecord(_ payload: UnsafeRawBufferPointer) -> Result<UInt32, RecordProblem> {
        guard payload.count >= 8 else { return .failure(.tooShort(size: payload.count)) }
        let stored = payload.loadLE32(payload.count - 4)
        let computed = XXHash32.hash(UnsafeRawBufferPointer(rebasing: payload[0..<(payload.count - 4)]))
        guard stored == computed else { return .failure(.checksumMismatch(stored: stored, computed: computed)) }
        return .success(payload.loadLE32(0))
    }
}

/// `0x1a2b3c4d`, for messages.
func hex(_ v: UInt32) -> String {
    let s = String(v, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - s.count)) + s
}
