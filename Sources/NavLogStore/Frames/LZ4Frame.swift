import CLZ4

// The only file that calls liblz4 (`LZ4F_*`). Everything else in navlog sees
// LZ4 frames through `LZ4FrameEncoder` and `LZ4FrameDecoder`.

/// A failure reported by liblz4's frame API, naming the call and liblz4's
/// error name (`LZ4F_getErrorName`), or a limit navlog put on a frame.
public struct LZ4FrameError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed, e.g. `"LZ4F_decompress"`.
    public var call: String
    /// liblz4's error name (`"ERROR_contentChecksum_invalid"`) or navlog's reason.
    public var reason: String

    public init(call: String, reason: String) {
        self.call = call
        self.reason = reason
    }

    public var description: String { "\(call): \(reason)" }

    /// Whether the frame simply ended early (more bytes were expected).
    public var isTruncation: Bool { reason == LZ4FrameError.truncatedReason }

    static let truncatedReason = "frame is incomplete (more bytes expected)"

    /// Checks a `size_t` result of an `LZ4F_*` call.
    @inline(__always)
    static func check(_ result: Int, _ call: String) throws(LZ4FrameError) -> Int {
        if LZ4F_isError(result) != 0 {
            throw LZ4FrameError(call: call, reason: String(cString: LZ4F_getErrorName(result)))
        }
        return result
    }
}

/// How data frames are laid out (schemas/navlog-format.md, "Data frames").
public struct LZ4FrameSettings: Hashable, Sendable {
    /// The largest LZ4 block inside a frame.
    public enum BlockSize: UInt8, Hashable, Sendable, CaseIterable {
        case max64KB = 4, max256KB = 5, max1MB = 6, max4MB = 7
        /// The size in bytes.
        public var bytes: Int { 1 << (8 + 2 * Int(rawValue)) }
    }

    /// The largest LZ4 block; navlog's default is ``BlockSize/max256KB`` (measured).
    public var blockSize: BlockSize
    /// Whether blocks may refer to earlier blocks of the same frame (better
    /// compression for the small blocks of incremental flushes).
    public var linkedBlocks: Bool
    /// Whether each LZ4 block carries an XXH32 of its compressed bytes, so
    /// that the complete blocks of an unfinished frame can be trusted.
    public var blockChecksums: Bool
    /// liblz4 compression level: 0 is the fast default (what `lz4 -1` uses).
    public var compressionLevel: Int32
    /// Whether the frame ends with the XXH32 of its content. Off only where
    /// the frame's bytes are checksummed as stored and its content is checked
    /// when read (a packed screen-projection block).
    public var contentChecksum: Bool

    public init(
        blockSize: BlockSize = .max256KB, linkedBlocks: Bool = true,
        blockChecksums: Bool = true, compressionLevel: Int32 = 0, contentChecksum: Bool = true
    ) {
        self.blockSize = blockSize
        self.linkedBlocks = linkedBlocks
        self.blockChecksums = blockChecksums
        self.compressionLevel = compressionLevel
        self.contentChecksum = contentChecksum
    }
}

/// Compresses bytes into LZ4 frames (with a content checksum unless the settings say otherwise).
///
/// ```swift
/// let encoder = try LZ4FrameEncoder()
/// let out = ByteBuffer()
/// try encoder.compressFrame(content, into: out)       // one whole frame
/// ```
///
/// A frame can also be built incrementally: ``begin(contentSize:into:)``,
/// any number of ``update(_:into:)`` (each emits complete LZ4 blocks, so
/// what has been written so far can be made durable), then ``end(into:)``.
package final class LZ4FrameEncoder {
    private let context: OpaquePointer
    private var preferences: LZ4F_preferences_t
    /// Whether a frame has been begun and not yet ended.
    package private(set) var inFrame = false

    package init(settings: LZ4FrameSettings = LZ4FrameSettings()) throws(LZ4FrameError) {
        var ctx: OpaquePointer?
        _ = try LZ4FrameError.check(LZ4F_createCompressionContext(&ctx, UInt32(LZ4F_VERSION)),
                                    "LZ4F_createCompressionContext")
        guard let ctx else {
            throw LZ4FrameError(call: "LZ4F_createCompressionContext", reason: "no context returned")
        }
        context = ctx
        var prefs = LZ4F_preferences_t()
        prefs.frameInfo.blockSizeID = LZ4F_blockSizeID_t(rawValue: UInt32(settings.blockSize.rawValue))
        prefs.frameInfo.blockMode = settings.linkedBlocks ? LZ4F_blockLinked : LZ4F_blockIndependent
        prefs.frameInfo.contentChecksumFlag = settings.contentChecksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum
        prefs.frameInfo.blockChecksumFlag = settings.blockChecksums ? LZ4F_blockChecksumEnabled : LZ4F_noBlockChecksum
        prefs.compressionLevel = settings.compressionLevel
        prefs.autoFlush = 1
        preferences = prefs
    }

    deinit { LZ4F_freeCompressionContext(context) }

    /// Compresses `content` into one complete frame whose header records the
    /// content size; appends the frame to `out`.
    package func compressFrame(_ content: UnsafeRawBufferPointer, into out: ByteBuffer) throws(LZ4FrameError) {
        try begin(contentSize: content.count, into: out)
        try update(content, into: out, lastOfFrame: true)
        try end(into: out)
    }

    /// Writes a frame header; `contentSize` goes into the header when given.
    package func begin(contentSize: Int?, into out: ByteBuffer) throws(LZ4FrameError) {
        var prefs = preferences
        prefs.frameInfo.contentSize = UInt64(contentSize ?? 0)
        out.reserve(Int(LZ4F_HEADER_SIZE_MAX))
        let written = try LZ4FrameError.check(
            LZ4F_compressBegin(context, out.base + out.count, out.capacity - out.count, &prefs),
            "LZ4F_compressBegin")
        out.count += written
        inFrame = true
    }

    /// Compresses `content` as complete LZ4 blocks of the current frame.
    ///
    /// With `lastOfFrame`, the caller promises to end the frame before it
    /// changes or frees `content`: liblz4 then links nothing more to it and
    /// skips copying its last 64 KB aside as the next block's dictionary
    /// (`stableSrc`).
    package func update(_ content: UnsafeRawBufferPointer, into out: ByteBuffer,
                       lastOfFrame: Bool = false) throws(LZ4FrameError) {
        guard inFrame else { throw LZ4FrameError(call: "LZ4F_compressUpdate", reason: "no frame begun") }
        guard content.count > 0 else { return }
        let bound = try LZ4FrameError.check(LZ4F_compressBound(content.count, &preferences), "LZ4F_compressBound")
        out.reserve(bound)
        var options = LZ4F_compressOptions_t()
        options.stableSrc = lastOfFrame ? 1 : 0
        let written = try LZ4FrameError.check(
            LZ4F_compressUpdate(context, out.base + out.count, out.capacity - out.count,
                                content.baseAddress, content.count, &options),
            "LZ4F_compressUpdate")
        out.count += written
    }

    /// Ends the frame: the end mark and the content checksum.
    package func end(into out: ByteBuffer) throws(LZ4FrameError) {
        guard inFrame else { throw LZ4FrameError(call: "LZ4F_compressEnd", reason: "no frame begun") }
        inFrame = false
        let bound = try LZ4FrameError.check(LZ4F_compressBound(0, &preferences), "LZ4F_compressBound")
        out.reserve(bound)
        let written = try LZ4FrameError.check(
            LZ4F_compressEnd(context, out.base + out.count, out.capacity - out.count, nil),
            "LZ4F_compressEnd")
        out.count += written
    }
}

/// Decompresses LZ4 frames with a bound on the output: a header's size claim
/// is never trusted beyond the limit the caller gives.
///
/// ```swift
/// let decoder = try LZ4FrameDecoder()
/// let content = ByteBuffer()
/// let used = try decoder.decodeFrame(frameBytes, maxContentBytes: 64 << 20, into: content)
/// ```
package final class LZ4FrameDecoder {
    private let context: OpaquePointer

    package init() throws(LZ4FrameError) {
        var ctx: OpaquePointer?
        _ = try LZ4FrameError.check(LZ4F_createDecompressionContext(&ctx, UInt32(LZ4F_VERSION)),
                                    "LZ4F_createDecompressionContext")
        guard let ctx else {
            throw LZ4FrameError(call: "LZ4F_createDecompressionContext", reason: "no context returned")
        }
        context = ctx
    }

    deinit { _ = LZ4F_freeDecompressionContext(context) }

    /// The result of decoding (part of) one frame.
    package struct Progress: Hashable, Sendable {
        /// Input bytes consumed.
        package var consumed: Int
        /// Whether the frame's end mark (and content checksum) was reached and verified.
        package var finished: Bool
        /// Why decoding stopped early, if it did; the output holds exactly
        /// the content of the blocks before the failing one.
        package var error: LZ4FrameError?
        /// Content bytes decoded at each of the `blockEnds` reached.
        package var producedAt: [Int] = []
    }

    /// Decodes the one frame at the start of `source` (which may hold more
    /// bytes after it) and appends its content to `out`. liblz4 checks the
    /// header checksum, every block checksum and the content checksum.
    ///
    /// - Throws: ``LZ4FrameError`` when the frame is malformed, fails a
    ///   checksum, would decode to more than `maxContentBytes`, or is
    ///   incomplete (``LZ4FrameError/isTruncation``). `out` is then left as
    ///   it was.
    /// - Returns: the frame's length in bytes.
    package func decodeFrame(
        _ source: UnsafeRawBufferPointer, maxContentBytes: Int, into out: ByteBuffer
    ) throws(LZ4FrameError) -> Int {
        let start = out.count
        let progress = decodePrefix(source, maxContentBytes: maxContentBytes, into: out)
        if let error = progress.error {
            out.count = start
            throw error
        }
        guard progress.finished else {
            out.count = start
            throw LZ4FrameError(call: "LZ4F_decompress", reason: LZ4FrameError.truncatedReason)
        }
        return progress.consumed
    }

    /// Decodes as much of the frame at the start of `source` as it holds,
    /// one LZ4 block at a time: the content of every complete, verified block
    /// is appended to `out`. Used for the unfinished frame at the tail of a
    /// log being written, and by ``decodeFrame(_:maxContentBytes:into:)``.
    ///
    /// `blockEnds` (offsets in `source`, ascending) are points where the
    /// content decoded so far is recorded in ``Progress/producedAt``.
    ///
    /// - Complexity: O(n) in the frame's size; allocates at most
    ///   `maxContentBytes + 1` bytes of output beyond what `out` holds.
    package func decodePrefix(
        _ source: UnsafeRawBufferPointer, maxContentBytes: Int, into out: ByteBuffer, blockEnds: [Int] = []
    ) -> Progress {
        LZ4F_resetDecompressionContext(context)
        let start = out.count
        let limit = start + maxContentBytes
        // The buffer may grow to one byte past the limit, so that "wants more
        // than the limit" can be told apart from "fits exactly".
        let ceiling = limit + 1
        var consumed = 0
        var produced: [Int] = []
        var stop = 0
        // liblz4's hint is the size of the next block (with the following
        // block header); feeding exactly that keeps one block per call, so an
        // error leaves `out` holding exactly the blocks before it.
        var hint = min(source.count, Int(LZ4F_HEADER_SIZE_MAX))
        func progress(_ finished: Bool, _ error: LZ4FrameError?) -> Progress {
            Progress(consumed: consumed, finished: finished, error: error, producedAt: produced)
        }
        while true {
            if out.capacity - out.count < 64 << 10 {
                let target = min(out.count + max(out.capacity, 128 << 10), ceiling)
                if target > out.count { out.reserve(target - out.count, limit: ceiling) }
            }
            let bound = stop < blockEnds.count ? min(blockEnds[stop], source.count) : source.count
            var dstSize = out.capacity - out.count
            var srcSize = max(0, min(bound - consumed, max(hint, 1)))
            let result = LZ4F_decompress(context, out.base + out.count, &dstSize,
                                         source.baseAddress.map { $0 + consumed }, &srcSize, nil)
            if LZ4F_isError(result) != 0 {
                let error = LZ4FrameError(call: "LZ4F_decompress", reason: String(cString: LZ4F_getErrorName(result)))
                return progress(false, error)
            }
            out.count += dstSize
            consumed += srcSize
            if out.count - start > maxContentBytes {
                out.count = limit
                return progress(false, LZ4FrameError(
                    call: "LZ4F_decompress", reason: "content exceeds the limit of \(maxContentBytes) bytes"))
            }
            if result == 0 { return progress(true, nil) }
            hint = result
            if srcSize == 0 && dstSize == 0 {
                // No progress: a recording point, the end of the input, or a full output.
                if stop < blockEnds.count && consumed >= bound {
                    produced.append(out.count - start)
                    stop += 1
                    continue
                }
                if consumed >= source.count { return progress(false, nil) }
                if out.capacity - out.count == 0 {
                    return progress(false, LZ4FrameError(
                        call: "LZ4F_decompress", reason: "content exceeds the limit of \(maxContentBytes) bytes"))
                }
            }
        }
    }
}
