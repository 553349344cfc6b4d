import NavLogCore

/// A session id of 1 to 16 bytes as two words and a count: an event's
/// `session` is compared with it by exact bytes (``SessionID``) without a
/// call, a copy or a reference count. Plain values only, so holding one in
/// a class costs nothing to read.
struct ShortSessionKey {
    private let w0: UInt64, w1: UInt64
    private let count: Int

    /// The key of `bytes`, or `nil` when they are empty or over 16 bytes.
    init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0, bytes.count <= ShortBytes.maxCount else { return nil }
        (w0, w1) = ShortBytes.words(bytes)
        count = bytes.count
    }

    /// Whether `bytes` are exactly the key's bytes.
    @inline(__always)
    func matches(bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count == count else { return false }
        let (a, b) = ShortBytes.words(bytes)
        return a == w0 && b == w1
    }

    /// Whether `id` is exactly these bytes; `nil` when `id` does not lend
    /// its bytes (the caller then compares them otherwise).
    @inline(__always)
    func matches(_ id: String) -> Bool? {
        id.utf8.withContiguousStorageIfAvailable { matches(bytes: UnsafeRawBufferPointer($0)) }
    }
}
