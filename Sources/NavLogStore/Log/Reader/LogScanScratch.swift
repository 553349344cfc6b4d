/// An LZ4 decoder, block buffers and a line parser (with its cache of
/// names) that the cursors of many logs, read one after another, share
/// instead of each making and freeing its own.
///
/// ```swift
/// let scratch = LogScanScratch()
/// for path in paths {
///     let cursor = try LogReader(path: path).cursor(sharing: scratch)
///     while let event = try cursor.next() { … }
/// }
/// ```
///
/// For a scan over a store of thousands of small logs, that setting up and
/// tearing down is otherwise a noticeable part of the time. A scratch
/// serves one cursor at a time: a cursor that asks while another one still
/// holds it gets its own decoder and buffers, as without a scratch. Use a
/// scratch from one thread at a time.
public final class LogScanScratch {
    private var reader: BlockReader?
    private var holder: ObjectIdentifier?

    public init() {}

    /// The shared block reader, pointed at `file`, when no other cursor holds it.
    func take(for cursor: ObjectIdentifier, file: OpenFile) -> BlockReader? {
        guard holder == nil, let reader else { return nil }
        reader.file = file
        holder = cursor
        return reader
    }

    /// Keeps a cursor's new block reader for the cursors after it, when
    /// there is none yet.
    func keep(_ reader: BlockReader, for cursor: ObjectIdentifier) {
        guard self.reader == nil, holder == nil else { return }
        self.reader = reader
        holder = cursor
    }

    /// Called by a cursor that goes away.
    func release(by cursor: ObjectIdentifier) {
        if holder == cursor { holder = nil }
    }
}
