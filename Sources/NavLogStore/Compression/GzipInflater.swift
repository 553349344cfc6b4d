import CZlib

/// Decodes a gzip stream (RFC 1952; concatenated members too) fed in
/// pieces, through zlib's inflate, into at most `limit` bytes: the moment
/// the output would pass the limit it stops with ``Failure/overLimit(_:)``,
/// so a small body that inflates to gigabytes (a "gzip bomb") costs at most
/// `limit` bytes of memory and the time to inflate that much.
///
/// ```swift
/// let inflater = try GzipInflater(limit: 10 << 20)
/// for piece in body { try inflater.append(piece) }
/// let bytes = try inflater.finish()
/// ```
///
/// Not thread-safe: one request's body, on one task.
public final class GzipInflater {
    /// Why a body could not be decoded.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// It decodes to more than this many bytes.
        case overLimit(Int)
        /// It is not gzip, or is damaged or cut short.
        case notGzip(String)

        public var description: String {
            switch self {
            case .overLimit(let limit): "the body decompresses to more than the limit of \(limit) bytes"
            case .notGzip(let why): "the body is not valid gzip: \(why)"
            }
        }
    }

    /// The most bytes the output may hold.
    public let limit: Int
    private let stream: UnsafeMutablePointer<z_stream>
    /// Where inflate writes each step (filling a growing array element by
    /// element costs more than the inflating).
    private let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: GzipInflater.step)
    private var output: [UInt8] = []
    /// Whether the last member read so far has ended (its trailer checked).
    private var memberEnded = false
    private var sawInput = false

    public init(limit: Int) throws(Failure) {
        self.limit = limit
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // On failure deinit frees both (every property is set by then), and
        // inflateEnd of a stream that never started does nothing.
        guard navlog_inflate_init_gzip(stream) == Z_OK else {
            throw .notGzip("zlib's inflateInit2 failed")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        scratch.deallocate()
    }

    /// Decodes one more piece of the compressed body.
    ///
    /// - Throws: ``Failure/overLimit(_:)`` as soon as the output would
    ///   pass the limit; ``Failure/notGzip(_:)`` for bytes that are not gzip.
    public func append(_ piece: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = piece.baseAddress, !piece.isEmpty else { return }
        sawInput = true
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.pointee.avail_in = UInt32(piece.count)
        defer {
            stream.pointee.next_in = nil
            stream.pointee.avail_in = 0
        }
        while stream.pointee.avail_in > 0 {
            if memberEnded {
                // Another member follows (gzip allows concatenated members).
                guard inflateReset(stream) == Z_OK else { throw .notGzip("zlib's inflateReset failed") }
                memberEnded = false
            }
            try inflateSome()
        }
    }

    /// Ends the body: the decoded bytes.
    ///
    /// - Throws: ``Failure/notGzip(_:)`` when the stream is empty or cut short.
    public func finish() throws(Failure) -> [UInt8] {
        guard sawInput else { throw .notGzip("it is empty") }
        guard memberEnded else { throw .notGzip("it ends before its gzip trailer") }
        return output
    }

    /// Runs inflate on the input given until it is used up or a member
    /// ends, through a fixed scratch buffer whose output is copied on, never
    /// past the limit (+1 byte to tell "exactly at the limit" from "over").
    private func inflateSome() throws(Failure) {
        while stream.pointee.avail_in > 0 && !memberEnded {
            let room = min(Self.step, limit + 1 - output.count)
            guard room > 0 else { throw .overLimit(limit) }
            stream.pointee.next_out = scratch.baseAddress
            stream.pointee.avail_out = UInt32(room)
            let status = inflate(stream, Z_NO_FLUSH)
            let produced = room - Int(stream.pointee.avail_out)
            output.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[..<produced]))
            switch status {
            case Z_STREAM_END: memberEnded = true
            case Z_OK, Z_BUF_ERROR: break
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "inflate failed (\(status))"
                throw .notGzip(message)
            }
            if output.count > limit { throw .overLimit(limit) }
            if status == Z_BUF_ERROR && produced == 0 { return }
        }
    }

    /// Output bytes added per call of inflate.
    private static let step = 256 << 10
}
