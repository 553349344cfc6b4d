/// What a ``LogWriter`` compresses with — its block buffer, its output
/// buffer and its liblz4 context — handed on, once the writer is closed, to
/// the next writer opened with the same options (``OpenLogs``).
///
/// An ingest opens one writer per session and keeps only some open at once:
/// a new writer that takes over a closed one's buffers writes into pages
/// already in memory instead of faulting in fresh ones (a block's worth for
/// every session), and skips making and zeroing a compression context.
final class LogWriterBuffers {
    /// Raw lines not yet compressed; empty when handed on.
    let pending: ByteBuffer
    /// Compressed bytes on their way to the file; empty when handed on.
    let out: ByteBuffer
    /// Between frames when handed on.
    let encoder: LZ4FrameEncoder

    init(pending: ByteBuffer, out: ByteBuffer, encoder: LZ4FrameEncoder) {
        pending.removeAll()
        out.removeAll()
        self.pending = pending
        self.out = out
        self.encoder = encoder
    }
}
