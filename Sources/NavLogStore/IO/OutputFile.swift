/// A file a command writes for the user (`generate --output`, `--rejects`,
/// `funnel --svg`): created, or emptied when it exists, and written in order
/// through a 64 KiB buffer. The one writer of such files; it writes through
/// ``OpenFile``, so its failures are ``FileError``s naming the call and the path.
/// Not thread-safe.
public final class OutputFile {
    /// The path the file was opened with (for messages).
    public let path: String
    private let file: OpenFile
    /// Bytes written to the file so far: where the next ones go.
    private var offset: Int64 = 0
    private var buffer: [UInt8] = []
    private static let flushAt = 1 << 16

    /// Creates `path`, or empties it when it exists.
    public init(path: String) throws(FileError) {
        self.path = path
        file = try OpenFile(path: path, mode: .replace)
        buffer.reserveCapacity(Self.flushAt)
    }

    /// Writes `bytes` after everything written before.
    public func write(_ bytes: [UInt8]) throws(FileError) {
        if buffer.isEmpty && bytes.count >= Self.flushAt {
            try put(bytes)
            return
        }
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.flushAt { try flush() }
    }

    /// Writes what is buffered to the file.
    public func flush() throws(FileError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        try put(buffer)
    }

    /// Writes what is buffered and closes the file.
    public func close() throws(FileError) {
        defer { file.close() }
        try flush()
    }

    /// Writes `text` as the whole content of the file at `path`.
    public static func write(_ text: String, to path: String) throws(FileError) {
        let file = try OutputFile(path: path)
        try file.write(Array(text.utf8))
        try file.close()
    }

    private func put(_ bytes: [UInt8]) throws(FileError) {
        try file.write(bytes, at: offset)
        offset += Int64(bytes.count)
    }
}
